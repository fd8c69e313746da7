"""Every compiled regex the ``kernel`` package holds, and inputs that make a super-linear
one show itself (issue 30; see docs/testing.md, "The pattern budget").

:func:`collect` imports every kernel module and walks what each holds: module globals,
class attributes, function defaults and closures, containers (tuples, lists, sets, dicts,
mapping proxies), attrs and other kernel objects, and the tables built on first need (a
cached function of no arguments is called, a kernel object that compiles a pattern when
called is called). Patterns written inline in a call (``re.match(r"…", s)``) are read from
the source with ``ast``.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import importlib
import inspect
import pkgutil
import re
import string
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, cast

import attrs

import kernel

# The regex parser's own modules (no type stubs): the parse tree is read as data.
sre: Any = importlib.import_module("re._constants")
sre_parse: Any = importlib.import_module("re._parser")

__all__ = ["RUN_CHARS", "SHIMS", "Pattern", "collect", "distinct_chars", "methods_used", "prefixes"]

#: Every ASCII punctuation and whitespace character.
RUN_CHARS = string.punctuation + string.whitespace
_RE_CALLS = frozenset(
    {"compile", "match", "search", "fullmatch", "sub", "subn", "findall", "finditer", "split"}
)


#: Command-line shims that refuse to be imported (each would shadow a function of the
#: package); their source is still read for inline patterns.
SHIMS = frozenset(
    {"kernel.analyze", "kernel.check", "kernel.decide", "kernel.lint", "kernel.migrate"}
)


def _modules() -> tuple[list[types.ModuleType], list[str]]:
    """The importable kernel modules, and the shims refused."""
    names = [kernel.__name__] + [
        m.name
        for m in pkgutil.walk_packages(kernel.__path__, prefix="kernel.")
        if m.name.rpartition(".")[2] != "__main__"
    ]
    modules: list[types.ModuleType] = []
    refused: list[str] = []
    for name in names:
        if name in SHIMS:
            refused.append(name)
        else:
            modules.append(importlib.import_module(name))
    return modules, refused


def _ours(obj: object) -> bool:
    module = getattr(type(obj), "__module__", "") or ""
    return module == "kernel" or module.startswith("kernel.")


def _no_arguments(fn: Callable[..., Any]) -> bool:
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return False
    return all(
        p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        for p in signature.parameters.values()
    )


Pattern = re.Pattern[str] | re.Pattern[bytes]


def collect() -> dict[tuple[str | bytes, int], tuple[Pattern, str]]:
    """(pattern source, flags) → (the pattern, where one copy was first found)."""
    found: dict[tuple[str | bytes, int], tuple[Pattern, str]] = {}
    seen: set[int] = set()
    keep: list[object] = []  # holds what was visited, so that ids stay unique

    def walk(obj: object, where: str, depth: int = 0) -> None:
        if id(obj) in seen or depth > 12:
            return
        seen.add(id(obj))
        keep.append(obj)
        if isinstance(obj, re.Pattern):
            found.setdefault((obj.pattern, obj.flags), (obj, where))
            return
        if isinstance(obj, (str, bytes, int, float, bool, type(None))):
            return
        if isinstance(obj, types.ModuleType):
            return  # each module is walked from its own globals
        if isinstance(obj, (tuple, list, set, frozenset)):
            for item in obj:
                walk(item, where, depth + 1)
            return
        if isinstance(obj, (dict, types.MappingProxyType)):
            for key, value in obj.items():
                walk(key, where, depth + 1)
                walk(value, f"{where}[{key!r}]"[:120], depth + 1)
            return
        if isinstance(obj, functools.partial):
            walk(obj.func, where, depth + 1)
            walk(obj.args, where, depth + 1)
            walk(obj.keywords, where, depth + 1)
            return
        if hasattr(obj, "cache_info") and callable(obj):
            wrapped = getattr(obj, "__wrapped__", None)
            if wrapped is not None:
                walk(wrapped, where, depth + 1)
            if _no_arguments(obj):
                walk(obj(), f"{where}()", depth + 1)  # a table built on first need
            return
        if isinstance(obj, (types.FunctionType, types.MethodType)):
            fn = obj.__func__ if isinstance(obj, types.MethodType) else obj
            if not (fn.__module__ or "").startswith("kernel"):  # None: code made by exec
                return
            walk(fn.__defaults__, where, depth + 1)
            walk(fn.__kwdefaults__, where, depth + 1)
            for cell in fn.__closure__ or ():
                with contextlib.suppress(ValueError):  # an empty cell
                    walk(cell.cell_contents, where, depth + 1)
            return
        if isinstance(obj, type):
            if (obj.__module__ or "").startswith("kernel"):
                for name, value in vars(obj).items():
                    walk(value, f"{where}.{name}", depth + 1)
            return
        if isinstance(obj, (staticmethod, classmethod, property)):
            walk(obj.__func__ if not isinstance(obj, property) else obj.fget, where, depth + 1)
            return
        if _ours(obj):
            if attrs.has(type(obj)):
                for field in attrs.fields(cast(Any, type(obj))):
                    walk(getattr(obj, field.name), f"{where}.{field.name}", depth + 1)
            else:
                state = getattr(obj, "__dict__", None)
                if state is not None:
                    walk(state, where, depth + 1)
                for slot in getattr(type(obj), "__slots__", ()):
                    if hasattr(obj, slot):
                        walk(getattr(obj, slot), f"{where}.{slot}", depth + 1)
            if callable(obj) and not isinstance(obj, type) and _no_arguments(obj):
                result = obj()
                if isinstance(result, re.Pattern):  # compiled on first need
                    walk(result, f"{where}()", depth + 1)

    modules, shims = _modules()
    for module in modules:
        for name, value in vars(module).items():
            walk(value, f"{module.__name__}.{name}")
    root = Path(kernel.__file__).parent.parent
    sources = [(m.__name__, m.__file__) for m in modules] + [
        (name, str(root / (name.replace(".", "/") + ".py"))) for name in shims
    ]
    for name, path in sources:
        if path is not None and path.endswith(".py"):
            for pattern, where in _inline(name, Path(path)):
                found.setdefault((pattern.pattern, pattern.flags), (pattern, where))
    return found


def _inline(module: str, path: Path) -> Iterator[tuple[re.Pattern[str], str]]:
    """Patterns written as a constant first argument of a call to the ``re`` module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "re"
            and node.func.attr in _RE_CALLS
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            flags = _flags(node, node.func.attr)
            if flags is not None:
                yield re.compile(node.args[0].value, flags), f"{module}:{node.lineno}"


def _flags(call: ast.Call, method: str) -> int | None:
    """The flags of a call to the ``re`` module when they are spelled ``re.NAME | …``
    (``None`` for anything else): a pattern compiled into a global is found there too, and
    must not count twice under other flags."""
    takes_flags = ("compile", "match", "search", "fullmatch", "findall", "finditer")
    index = 1 if method in takes_flags else None
    given = [k.value for k in call.keywords if k.arg == "flags"]
    if index is not None and len(call.args) > index:
        given.append(call.args[index])
    if not given:
        return 0
    flags = 0
    for node in ast.walk(given[0]):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id != "re":
                return None
            flags |= int(getattr(re, node.attr))
        elif not isinstance(node, (ast.BinOp, ast.BitOr, ast.Name, ast.Load)):
            return None
    return flags


_CATEGORY_WITNESS = {
    sre.CATEGORY_DIGIT: "0",
    sre.CATEGORY_NOT_DIGIT: "a",
    sre.CATEGORY_SPACE: " ",
    sre.CATEGORY_NOT_SPACE: "x",
    sre.CATEGORY_WORD: "a",
    sre.CATEGORY_NOT_WORD: "!",
    sre.CATEGORY_LINEBREAK: "\n",
    sre.CATEGORY_NOT_LINEBREAK: "a",
}
_CATEGORY_PROBE = {
    sre.CATEGORY_DIGIT: re.compile(r"\d"),
    sre.CATEGORY_NOT_DIGIT: re.compile(r"\D"),
    sre.CATEGORY_SPACE: re.compile(r"\s"),
    sre.CATEGORY_NOT_SPACE: re.compile(r"\S"),
    sre.CATEGORY_WORD: re.compile(r"\w"),
    sre.CATEGORY_NOT_WORD: re.compile(r"\W"),
}
_CANDIDATES = "ax0 !\n-#Z"


def _in_set(c: str, members: list[tuple[Any, Any]]) -> bool:
    for op, arg in members:
        if op is sre.LITERAL and ord(c) == arg:
            return True
        if op is sre.RANGE and arg[0] <= ord(c) <= arg[1]:
            return True
        if op is sre.CATEGORY and arg in _CATEGORY_PROBE and _CATEGORY_PROBE[arg].fullmatch(c):
            return True
    return False


def _witness(op: Any, arg: Any) -> str | None:
    """One character the item ``(op, arg)`` matches, or ``None``."""
    if op is sre.LITERAL:
        return chr(arg)
    if op is sre.NOT_LITERAL:
        return "a" if arg != ord("a") else "b"
    if op is sre.ANY:
        return "a"
    if op is sre.CATEGORY:
        return _CATEGORY_WITNESS.get(arg)
    if op is sre.IN:
        members = list(arg)
        if members and members[0][0] is sre.NEGATE:
            return next((c for c in _CANDIDATES if not _in_set(c, members[1:])), None)
        return next((c for c in _CANDIDATES if _in_set(c, members)), None) or next(
            (w for o, a in members if (w := _witness(o, a)) is not None), None
        )
    return None


def _walk(
    items: list[tuple[Any, Any]], heads: list[str], limit: int
) -> tuple[list[str], list[str]]:
    """(the heads at each repeat of no fixed count, the heads past ``items``): strings the
    leading items match, forked at alternatives, cut off at an item with no witness."""
    stops: list[str] = []
    for op, arg in items:
        if not heads:
            break
        if op is sre.AT or op in (sre.ASSERT, sre.ASSERT_NOT):
            continue
        if op is sre.SUBPATTERN:
            inner, heads = _walk(list(arg[-1]), heads, limit)
            stops += inner
        elif op is sre.BRANCH:
            forked: list[str] = []
            for branch in arg[1]:
                inner, after = _walk(list(branch), heads, limit)
                stops += inner
                forked += after
            heads = forked[:limit]
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            low, high, body = arg
            if high == sre.MAXREPEAT or low != high:
                stops += heads
            inner, _ = _walk(list(body), heads, limit)
            stops += inner
            if low:
                _, once = _walk(list(body), [""], limit)
                heads = [h + b * low for h in heads for b in once][:limit]
        else:
            char = _witness(op, arg)
            if char is None:
                return stops + heads, []
            heads = [h + char for h in heads]
    return stops, heads


def prefixes(pattern: Pattern, limit: int = 3) -> list[str]:
    """Up to ``limit`` distinct non-empty strings that ``pattern``'s leading items match,
    each ending where a repeat of no fixed count starts, or where the pattern ends."""
    source = pattern.pattern
    if isinstance(source, bytes):
        source = source.decode("latin-1")
    stops, heads = _walk(list(sre_parse.parse(source, pattern.flags)), [""], limit * 4)
    return list(dict.fromkeys(h for h in stops + heads if h))[:limit]


_SEARCHING = frozenset({"search", "finditer", "findall", "sub", "subn", "split"})
_METHODS = {**{m: "search" for m in _SEARCHING}, "match": "match", "fullmatch": "fullmatch"}


@functools.cache
def _uses() -> dict[str, frozenset[str]]:
    """Where a pattern is called → the methods called on it, as ``search``/``match``/
    ``fullmatch``: ``module.NAME`` for ``NAME.search(…)`` or ``NAME().match(…)`` in a module
    that defines or imports ``NAME``; ``.NAME`` for ``obj.NAME.fullmatch(…)`` anywhere."""
    uses: dict[str, set[str]] = {}
    root = Path(kernel.__file__).parent
    for path in root.rglob("*.py"):
        parts = path.relative_to(root.parent).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {
            alias.asname or alias.name: f"{node.module}.{alias.name}"
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module
            for alias in node.names
        }
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Attribute) and node.attr in _METHODS):
                continue
            target = node.value
            if isinstance(target, ast.Call):  # a pattern compiled on first need: NAME().match
                target = target.func
            if isinstance(target, ast.Name):
                key = imported.get(target.id, f"{module}.{target.id}")
            elif isinstance(target, ast.Attribute):
                key = f".{target.attr}"
            else:
                continue
            uses.setdefault(key, set()).add(_METHODS[node.attr])
    return {key: frozenset(found) for key, found in uses.items()}


def methods_used(where: str) -> frozenset[str]:
    """How the pattern found at ``where`` is called: read from the source when a module or
    class attribute holds it and is called by name; all three methods otherwise."""
    held = where.split("[")[0].split("(")[0]
    name = held.rsplit(".", 1)[-1]
    found = _uses().get(held, frozenset()) | _uses().get(f".{name}", frozenset())
    if ":" in where or not found:
        return frozenset({"search", "match", "fullmatch"})
    return found


def _atoms(items: Any, out: list[tuple[Any, Any]]) -> None:
    for op, arg in items:
        if op in (sre.LITERAL, sre.NOT_LITERAL, sre.ANY, sre.IN, sre.CATEGORY):
            out.append((op, arg))
        elif op is sre.SUBPATTERN:
            _atoms(arg[-1], out)
        elif op is sre.BRANCH:
            for branch in arg[1]:
                _atoms(branch, out)
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            _atoms(arg[2], out)
        elif op in (sre.ASSERT, sre.ASSERT_NOT):
            _atoms(arg[1], out)
        elif op is sre.ATOMIC_GROUP:
            _atoms(arg, out)
        elif op is sre.GROUPREF_EXISTS:
            _atoms(arg[1], out)
            if arg[2] is not None:
                _atoms(arg[2], out)


def _reads(op: Any, arg: Any, c: str, flags: int) -> bool:
    if op is sre.LITERAL:
        return bool(ord(c) == arg)
    if op is sre.NOT_LITERAL:
        return bool(ord(c) != arg)
    if op is sre.ANY:
        return c != "\n" or bool(flags & re.DOTALL)
    if op is sre.CATEGORY:
        return _in_set(c, [(op, arg)])
    members = list(arg)
    if members and members[0][0] is sre.NEGATE:
        return not _in_set(c, members[1:])
    return _in_set(c, members)


def distinct_chars(pattern: Pattern, chars: str = RUN_CHARS) -> str:
    """One character of ``chars`` for each way ``pattern`` can tell them apart: two that
    every character test of the pattern (and line and word boundaries) reads alike behave
    alike in every run."""
    source = pattern.pattern
    if isinstance(source, bytes):
        source = source.decode("latin-1")
    atoms: list[tuple[Any, Any]] = []
    _atoms(sre_parse.parse(source, pattern.flags), atoms)
    groups: dict[tuple[bool, ...], str] = {}
    for c in chars:
        key = (c == "\n", c == "_", *(_reads(op, arg, c, pattern.flags) for op, arg in atoms))
        groups.setdefault(key, c)
    return "".join(groups.values())
