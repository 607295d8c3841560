"""The plain baseline the scope engine must beat: TF-IDF + logistic regression (scikit-learn).

Only the evaluation uses it (`curator scope evaluate`); scikit-learn is an evaluation extra
(`pip install curator[eval]`, part of `dev`), never needed to check a list. It is trained on
exactly the records the scorer is trained on (gate-passing, with an abstract), on the title
and abstract, with its regularisation chosen by cross-validation on that training part.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from curator.core.errors import UsageError
from curator.scope.records import Record

#: Regularisation strengths tried by inner cross-validation on the training part.
CS = (0.1, 1.0, 10.0, 100.0)


def _sklearn() -> Any:
    try:
        import sklearn  # noqa: F401  # only to say what to install when it is missing
    except ImportError:
        raise UsageError(
            "the evaluation's baseline needs scikit-learn: pip install 'curator[eval]'"
        ) from None
    from sklearn import feature_extraction, linear_model, model_selection, pipeline

    return feature_extraction, linear_model, model_selection, pipeline


def text(record: Record) -> str:
    """What the baseline reads: the title and the abstract."""
    return f"{record.data.get('title', '')}. {record.abstract or ''}"


def _model(folds: int) -> Any:
    features, linear, selection, pipe = _sklearn()
    model = pipe.make_pipeline(
        features.text.TfidfVectorizer(sublinear_tf=True, ngram_range=(1, 2), min_df=2),
        linear.LogisticRegression(class_weight="balanced", max_iter=5000),
    )
    splitter = selection.StratifiedKFold(n_splits=folds, shuffle=True, random_state=0)
    return selection.GridSearchCV(
        model, {"logisticregression__C": list(CS)}, cv=splitter, scoring="average_precision"
    )


def _folds(labels: Sequence[int], wanted: int = 5) -> int:
    return max(2, min(wanted, sum(labels), len(labels) - sum(labels)))


class Baseline:
    """A fitted TF-IDF + logistic regression: P(include) for a record."""

    def __init__(self, train: Sequence[Record]) -> None:
        labels = [int(r.decision == "include") for r in train]
        self.model = _model(_folds(labels)).fit([text(r) for r in train], labels)

    def scores(self, records: Sequence[Record]) -> list[float]:
        """P(include) of each record."""
        if not records:
            return []
        return [float(p[1]) for p in self.model.predict_proba([text(r) for r in records])]


def out_of_fold(train: Sequence[Record], folds: int = 5) -> list[float]:
    """Each training record's P(include) from a baseline fitted without its fold."""
    _, _, selection, _ = _sklearn()
    labels = [int(r.decision == "include") for r in train]
    k = _folds(labels, folds)
    splitter = selection.StratifiedKFold(n_splits=k, shuffle=True, random_state=0)
    probs = selection.cross_val_predict(
        _model(_folds(labels, k - 1) if k > 2 else 2),
        [text(r) for r in train],
        labels,
        cv=splitter,
        method="predict_proba",
    )
    return [float(p[1]) for p in probs]
