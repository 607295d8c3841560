"""The scope lab: the scope policy's scorer trained and measured offline, never used by `check`.

`curator scope train` (train + splits: records as training data) and `curator scope evaluate`
(evaluate + measure + page, baseline, batch; crosslist: relevance measured on lists) run it.
It may import scope/ (the runtime engine it trains and measures); scope/ never imports it.
"""
