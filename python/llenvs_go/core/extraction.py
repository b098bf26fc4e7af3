"""Answer extractors, as in llenvs' ``core/extraction.py``, served by the Go core.

An extractor's ``extract(text)`` returns ``(answer, metadata)``: ``answer`` is
None when nothing was found (``""`` is a valid extraction), ``metadata`` is a
fresh dict describing the extraction. The classes take llenvs' constructor
parameters and defaults; each one runs the Go extractor an environment runs
when configured the same way, so for every text an extractor object and an
environment configured from it (:meth:`GoExtractor.to_config`) report the same
answer and metadata. ``docs/extractors.md`` lists where the Go extractors
differ from llenvs on purpose (e.g. ``numeric`` does not split ``1000``,
``multiple_choice`` reads "The answer is B", ``gsm8k`` reads negatives,
offsets are UTF-8 byte offsets, regular expressions use RE2 syntax).

:class:`NativeExtractor` calls a Python function; a :class:`CompositeExtractor`
or :class:`CleanedExtractor` containing one, or containing what a Go
configuration cannot express, composes its members in Python (with llenvs'
semantics), each member still served by Go where it can be.

This module is their public path: the classes live in :mod:`~llenvs_go.core.extractors` (served by Go),
:mod:`~llenvs_go.core.composite_extractors` (composed) and :mod:`~llenvs_go.core.extractor_registry` (by name).
"""

from llenvs_go.core.composite_extractors import CleanedExtractor, CompositeExtractor, NativeExtractor
from llenvs_go.core.extractor_registry import (
    Registry,
    answer_extractor_registry,
    extractor_from_spec,
    extractor_settings,
    register_defaults,
)
from llenvs_go.core.extractors import (
    AnswerExtractor,
    BoxedExtractor,
    CodeBlockExtractor,
    ExtractionResult,
    GoExtractor,
    GSM8KExtractor,
    LastLineExtractor,
    MultipleChoiceExtractor,
    NumericExtractor,
    PatternAnswerExtractor,
    RawGenerationExtractor,
    RegexExtractor,
    TagBasedExtractor,
    TailExtractor,
)

# The classes are public here, and pickles name them here.
for _cls in (AnswerExtractor, BoxedExtractor, CleanedExtractor, CodeBlockExtractor, CompositeExtractor, GoExtractor,
             GSM8KExtractor, LastLineExtractor, MultipleChoiceExtractor, NativeExtractor, NumericExtractor,
             PatternAnswerExtractor, RawGenerationExtractor, RegexExtractor, Registry, TagBasedExtractor,
             TailExtractor):
    _cls.__module__ = __name__
del _cls

__all__ = [
    "AnswerExtractor", "BoxedExtractor", "CleanedExtractor", "CodeBlockExtractor", "CompositeExtractor",
    "ExtractionResult", "GSM8KExtractor", "GoExtractor", "LastLineExtractor", "MultipleChoiceExtractor",
    "NativeExtractor", "NumericExtractor", "PatternAnswerExtractor", "RawGenerationExtractor", "RegexExtractor",
    "Registry", "TagBasedExtractor", "TailExtractor", "answer_extractor_registry", "extractor_from_spec",
    "extractor_settings", "register_defaults",
]
