"""Reading the maintainers' recorded decisions (curator/scope/decided.py) at the run's edge.

Every record is read from where the run reads its rules: the working tree in a local run,
the base revision in pull-request mode (curator.config.config_files). A pull request's own
decisions file, screening record or inline marker therefore never settles its own paper;
its changes to the rules folder are reported as `config-changed`. Nor do a pull request's
own screening records teach the relevance model (`trusted_records`).
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from curator.config.config_files import ConfigFiles, config_files
from curator.config.options import Options
from curator.core.errors import InputError
from curator.scope.decided import Recorded, from_screening, markers, merged

if TYPE_CHECKING:
    from curator.scope.records import Record


def recorded_decisions(
    options: Options,
    own: Mapping[str, Recorded],
    list_files: Iterable[str],
    records: Sequence[Record] | None = None,
) -> dict[str, Recorded]:
    """The decisions file (`own`: loaded with the rules), then the screening records' includes,
    then the inline markers of the list's files, by subject. `records`: the working tree's
    screening records when the run has read them already (used outside pull-request mode)."""
    files = config_files(Path(options.root), options.changed_since)
    if records is not None and not options.changed_since:
        screened = _included(records)
    else:
        screened = _screening(files, options)
    return merged(own, screened, _markers(files, options, list_files))


def _included(records: Iterable[Record]) -> dict[str, Recorded]:
    """The include decisions of screening records already read."""
    found = [
        (str(r.data.get("id", "")), r.decision, f"{r.source.file}:{r.source.line}") for r in records
    ]
    return from_screening(found)


def _screening(files: ConfigFiles, options: Options) -> dict[str, Recorded]:
    """Include records of the records folder (`screening/*.json`)."""
    return _included(_records(files, options))


def trusted_records(options: Options, records: Sequence[Record] | None) -> list[Record]:
    """The screening records that may teach the relevance model: in pull-request mode the
    base's (a pull request's own records file must not make its paper look like the list's),
    else `records`, the working tree's as the run read them."""
    if not options.changed_since:
        return list(records or ())
    return _records(config_files(Path(options.root), options.changed_since), options)


def _records(files: ConfigFiles, options: Options) -> list[Record]:
    """The records of the records folder (`screening/*.json`) in `files`."""
    from curator.scope.records import parse_records

    folder = _inside(os.path.join(options.root, options.records_dir), options)
    if folder is None:
        return []
    names = [posixpath.join(folder, n) for n in files.names(folder) if n.endswith(".json")]
    files.prefetch(names)
    read: list[Record] = []
    for name in names:
        text = files.read(name)
        if text is not None:
            read += parse_records(text, files.display(name))
    return read


def _markers(
    files: ConfigFiles, options: Options, list_files: Iterable[str]
) -> dict[str, Recorded]:
    """Inline markers of the list's files (the files its chosen entries were read from)."""
    rels = [r for f in dict.fromkeys(list_files) if (r := _inside(f, options)) is not None]
    files.prefetch(rels)
    out: dict[str, Recorded] = {}
    for rel in rels:
        try:
            text = files.read(rel)
        except InputError:
            continue  # a file the base cannot give as text: it holds no marker that counts
        if text is not None:
            out = merged(out, markers(text, files.display(rel)))
    return out


def _inside(path: str, options: Options) -> str | None:
    """`path` (as given: relative to the working folder) relative to the repository root
    (POSIX), None when outside it."""
    root = os.path.abspath(options.root)
    rel = os.path.relpath(os.path.abspath(path), root)
    if rel == os.pardir or rel.startswith(os.pardir + os.sep):
        return None
    return Path(rel).as_posix()
