"""Tool calling value types: definitions, calls and results (llenvs' ``core/tools.py``)."""

from __future__ import annotations

import copy
import inspect
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum, auto
from typing import Any, Protocol, runtime_checkable


class ToolParameterType(Enum):
    """The JSON Schema type of a tool parameter; the value is the schema's ``type`` string."""

    STRING = "string"
    NUMBER = "number"
    INTEGER = "integer"
    BOOLEAN = "boolean"
    ARRAY = "array"
    OBJECT = "object"


@dataclass(frozen=True)
class ToolParameter:
    """One flat parameter of a tool.

    Attributes:
        name: the argument's name.
        type: its JSON Schema type, a :class:`ToolParameterType` or its string (``"string"``, ...);
            a string is turned into the enum member.
        description: what the argument means, for the model.
        required: whether a call must supply it.
        enum: the allowed values, when the parameter is a choice.
    """

    name: str
    type: ToolParameterType
    description: str
    required: bool = True
    enum: tuple[Any, ...] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.type, ToolParameterType):
            object.__setattr__(self, "type", ToolParameterType(self.type))
        if self.enum is not None and not isinstance(self.enum, tuple):
            object.__setattr__(self, "enum", tuple(self.enum))

    def to_json_schema(self) -> dict[str, Any]:
        """This parameter's JSON Schema: ``{"type", "description"}`` plus ``"enum"`` when set."""
        schema: dict[str, Any] = {"type": self.type.value, "description": self.description}
        if self.enum is not None:
            schema["enum"] = list(self.enum)
        return schema


@dataclass(frozen=True)
class ToolDefinition:
    """A tool the model may call.

    Attributes:
        name: the tool's unique name.
        description: what the tool does, for the model.
        parameters: its flat parameters, used to build the JSON Schema.
        is_terminal: whether calling it ends the episode.
        raw_schema: a JSON Schema to use as is, for schemas the flat parameters cannot express.
            It may be the parameters object itself, a bare function ``{"name", "description",
            "parameters"}``, or an OpenAI tool ``{"type": "function", "function": {...}}``.
    """

    name: str
    description: str
    parameters: tuple[ToolParameter, ...] = ()
    is_terminal: bool = False
    raw_schema: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.parameters, tuple):
            object.__setattr__(self, "parameters", tuple(self.parameters))

    def parameters_schema(self) -> dict[str, Any]:
        """The JSON Schema of the tool's arguments (an ``"object"`` schema)."""
        return self._function_parts()[2]

    def _function_parts(self) -> tuple[str, str, dict[str, Any]]:
        """Name, description and arguments schema, from ``raw_schema`` when it is set."""
        raw = self.raw_schema
        if raw is None:
            properties = {p.name: p.to_json_schema() for p in self.parameters}
            required = [p.name for p in self.parameters if p.required]
            return self.name, self.description, {"type": "object", "properties": properties, "required": required}
        if raw.get("type") == "function" and isinstance(raw.get("function"), dict):
            fn = raw["function"]
        elif "name" in raw and "parameters" in raw:
            fn = raw
        else:
            return self.name, self.description, raw
        return fn.get("name", self.name), fn.get("description", self.description), fn.get("parameters", {})

    def to_openai_schema(self) -> dict[str, Any]:
        """The OpenAI tool form: ``{"type": "function", "function": {"name", "description", "parameters"}}``."""
        name, description, params = self._function_parts()
        return {"type": "function", "function": {"name": name, "description": description, "parameters": params}}

    def to_anthropic_schema(self) -> dict[str, Any]:
        """The Anthropic tool form: ``{"name", "description", "input_schema"}``."""
        name, description, params = self._function_parts()
        return {"name": name, "description": description, "input_schema": params}

    @classmethod
    def from_callable(cls, fn: Callable[..., Any], *, name: str | None = None, description: str | None = None,
                      is_terminal: bool = False) -> ToolDefinition:
        """The definition of a tool that calls ``fn``, read from its signature and docstring.

        Each parameter (``self`` and ``cls`` skipped) becomes a :class:`ToolParameter`: its type from
        the annotation (``str``, ``int``, ``float``, ``bool``, ``list``/``tuple``/``list[...]``,
        ``dict``/``dict[...]``; anything else, or none, is a string), required unless it has a
        default, described by the Google-style ``Args:`` section of the docstring. The description is
        the docstring's first paragraph, else the name.

        Raises:
            TypeError: ``fn`` is not callable.
            ValueError: no ``name`` is given for a lambda (``<lambda>`` is not a tool name).
        """
        if not callable(fn):
            raise TypeError(f"from_callable needs a callable, got {type(fn).__name__}")
        tool_name = name if name is not None else getattr(fn, "__name__", None)
        if not tool_name or tool_name == "<lambda>":
            raise ValueError("from_callable: this callable has no usable name; pass name='...'")
        doc = inspect.getdoc(fn) or ""
        summary, arg_docs = _parse_docstring(doc)
        try:
            hints = typing.get_type_hints(fn)
        except Exception:  # unresolvable forward references: read the raw annotations instead
            hints = getattr(fn, "__annotations__", {})
        params = []
        for p in inspect.signature(fn).parameters.values():
            if p.name in ("self", "cls") or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                continue
            params.append(ToolParameter(name=p.name, type=_parameter_type(hints.get(p.name, p.annotation)),
                                        description=arg_docs.get(p.name, ""), required=p.default is p.empty))
        return cls(name=tool_name, description=description if description is not None else (summary or tool_name),
                   parameters=tuple(params), is_terminal=is_terminal)


def _parameter_type(annotation: Any) -> ToolParameterType:
    """The JSON Schema type of a Python annotation (a string when it names no JSON type)."""
    origin = typing.get_origin(annotation) or annotation
    if origin in (typing.Union, types.UnionType):  # Optional[X] and X | None: the one non-None type
        args = [a for a in typing.get_args(annotation) if a is not type(None)]
        return _parameter_type(args[0]) if len(args) == 1 else ToolParameterType.STRING
    if origin is bool:
        return ToolParameterType.BOOLEAN
    if origin is int:
        return ToolParameterType.INTEGER
    if origin is float:
        return ToolParameterType.NUMBER
    if origin in (list, tuple, set, frozenset):
        return ToolParameterType.ARRAY
    if origin is dict:
        return ToolParameterType.OBJECT
    return ToolParameterType.STRING


def _parse_docstring(doc: str) -> tuple[str, dict[str, str]]:
    """A Google-style docstring's first paragraph and its ``Args:`` descriptions by name."""
    summary = doc.split("\n\n", 1)[0].strip()
    args: dict[str, str] = {}
    lines = doc.splitlines()
    try:
        first = next(i for i, line in enumerate(lines) if line.strip() in ("Args:", "Arguments:", "Parameters:"))
    except StopIteration:
        return summary, args
    entry_indent = None  # the indent of "name: description" lines; deeper lines continue an entry
    current = None
    for line in lines[first + 1:]:
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        if indent == 0:
            break  # the next section (Returns:, Raises:)
        if entry_indent is None:
            entry_indent = indent
        head, sep, rest = line.strip().partition(":")
        name = head.split("(")[0].strip()  # "name (int): ..." names its type too
        if indent <= entry_indent and sep and name.isidentifier():
            current = name
            args[name] = rest.strip()
        elif current is not None:
            args[current] = f"{args[current]} {line.strip()}".strip()
    return summary, args


def oai_tools_to_definitions(tools: Sequence[Mapping[str, Any]]) -> list[ToolDefinition]:
    """Tool definitions from OpenAI-style tool schemas (``{"type": "function", "function": {...}}`` or the bare
    function object), as chat templates and inference servers take them.

    Each definition keeps the schema whole as ``raw_schema`` (nested objects and arrays survive a
    round trip through :meth:`ToolDefinition.to_openai_schema`) and lists its top-level
    properties as flat parameters for inspection.

    Raises:
        TypeError: a tool that is not a mapping, or whose ``parameters`` is not one.
        ValueError: a tool without a ``name``.
    """
    out = []
    for k, tool in enumerate(tools):
        if not isinstance(tool, Mapping):
            raise TypeError(f"tools[{k}] must be a mapping (an OpenAI tool schema), got {type(tool).__name__}")
        fn = tool["function"] if tool.get("type") == "function" and isinstance(tool.get("function"), Mapping) else tool
        name = fn.get("name")
        if not isinstance(name, str) or not name:
            raise ValueError(f"tools[{k}] has no function name: {dict(tool)!r}")
        schema = fn.get("parameters") or {}
        if not isinstance(schema, Mapping):
            raise TypeError(f"tools[{k}]['parameters'] must be a JSON Schema object, got {type(schema).__name__}")
        required = set(schema.get("required") or ())
        params = []
        for pname, prop in (schema.get("properties") or {}).items():
            prop = prop if isinstance(prop, Mapping) else {}
            kind = prop.get("type")
            try:
                ptype = ToolParameterType(kind) if isinstance(kind, str) else ToolParameterType.STRING
            except ValueError:  # "null" and other types the flat form has no member for
                ptype = ToolParameterType.STRING
            enum = prop.get("enum")
            params.append(ToolParameter(name=pname, type=ptype, description=str(prop.get("description", "")),
                                        required=pname in required,
                                        enum=tuple(enum) if isinstance(enum, list) else None))
        out.append(ToolDefinition(name=name, description=str(fn.get("description", "")), parameters=tuple(params),
                                  raw_schema=copy.deepcopy(dict(tool))))
    return out


@dataclass(frozen=True)
class ToolCall:
    """A call of a tool by the model: an id to match the result, the tool's name and its arguments."""

    id: str
    name: str
    arguments: dict[str, Any] = field(default_factory=dict)


class ToolResultStatus(Enum):
    """How a tool call ended."""

    SUCCESS = auto()
    ERROR = auto()
    INVALID_TOOL = auto()
    INVALID_ARGUMENTS = auto()


@dataclass(frozen=True)
class ToolResult:
    """The result of one tool call.

    ``output`` is the tool's output on success; on failure it stays ``""`` and the
    message is in ``error``.
    """

    call_id: str
    tool_name: str
    status: ToolResultStatus
    output: str | dict[str, Any] = ""
    error: str | None = None

    @classmethod
    def success(cls, call_id: str, tool_name: str, output: str | dict[str, Any]) -> ToolResult:
        """A successful result carrying ``output``."""
        return cls(call_id=call_id, tool_name=tool_name, status=ToolResultStatus.SUCCESS, output=output)

    @classmethod
    def from_error(
        cls,
        call_id: str,
        tool_name: str,
        error_message: str,
        status: ToolResultStatus = ToolResultStatus.ERROR,
    ) -> ToolResult:
        """A failed result: ``error_message`` goes into ``error``, ``output`` stays ``""``."""
        return cls(call_id=call_id, tool_name=tool_name, status=status, error=error_message)

    @property
    def is_success(self) -> bool:
        """Whether the status is SUCCESS."""
        return self.status is ToolResultStatus.SUCCESS

    @property
    def is_error(self) -> bool:
        """Whether the status is anything but SUCCESS."""
        return self.status is not ToolResultStatus.SUCCESS


@runtime_checkable
class ToolExecutor(Protocol):
    """What runs tool calls (llenvs' protocol): one call, or several in order."""

    def execute(self, call: ToolCall) -> ToolResult:
        """Run one call; its failure is the result's status, never an exception."""
        ...

    def execute_batch(self, calls: tuple[ToolCall, ...]) -> tuple[ToolResult, ...]:
        """Run several calls; the results are in the order of the calls."""
        ...


class SimpleToolExecutor:
    """Runs tool calls with Python functions, one per tool name (llenvs' ``SimpleToolExecutor``).

    Each function takes the call's arguments as keywords and returns the
    output (a str or a dict). A name with no function is ``INVALID_TOOL``
    (``"Unknown tool: <name>"``); arguments the function's signature does not
    accept are ``INVALID_ARGUMENTS``; an exception raised by the function is
    ``ERROR`` with its message.

    Args:
        tools: tool name -> function.
    """

    def __init__(self, tools: dict[str, Callable[..., str | dict[str, Any]]]):
        if not isinstance(tools, dict) or not all(callable(f) for f in tools.values()):
            raise TypeError("SimpleToolExecutor needs a dict of tool name -> function")
        self._tools = dict(tools)

    def execute(self, call: ToolCall) -> ToolResult:
        """Run ``call`` with its tool's function."""
        fn = self._tools.get(call.name)
        if fn is None:
            return ToolResult.from_error(call.id, call.name, f"Unknown tool: {call.name}",
                                         ToolResultStatus.INVALID_TOOL)
        arguments = dict(call.arguments)
        try:
            inspect.signature(fn).bind(**arguments)
        except TypeError as e:
            return ToolResult.from_error(call.id, call.name, f"Invalid arguments for {call.name}: {e}",
                                         ToolResultStatus.INVALID_ARGUMENTS)
        except ValueError:  # no signature to check (a builtin): the call itself says
            pass
        try:
            return ToolResult.success(call.id, call.name, fn(**arguments))
        except Exception as e:  # noqa: BLE001 - a tool's failure is its result, as in llenvs
            return ToolResult.from_error(call.id, call.name, f"{type(e).__name__}: {e}")

    def execute_batch(self, calls: tuple[ToolCall, ...]) -> tuple[ToolResult, ...]:
        """Run ``calls`` one after another."""
        return tuple(self.execute(c) for c in calls)
