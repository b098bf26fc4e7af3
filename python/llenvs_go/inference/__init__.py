"""llenvs' ``inference`` package, as far as llenvs-go serves it: the prompt library (:mod:`.prompts`).

llenvs-go runs no models, so llenvs' inference backends and its message transformers are not here.
"""
