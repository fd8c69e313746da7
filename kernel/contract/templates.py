"""The shipped contract templates and the Schema 13 document, read from package data."""

from __future__ import annotations

import copy
import functools
from typing import Any, Final

from kernel.errors import ContractError
from kernel.io import loads_strict, package_data
from kernel.strict import shown

__all__ = [
    "TEMPLATE_NAMES",
    "TEMPLATE_SHA256",
    "schema",
    "schema_document",
    "shipped_template",
    "template_hint",
    "template_is_pristine",
]

#: A name under ``13.2/`` is a dialect 13.2 template; the others are Schema 13 (v3.6.2).
TEMPLATE_NAMES: Final = (
    "reviewer/full",
    "reviewer/methodology_focus",
    "13.2/reviewer/full",
    "13.2/reviewer/methodology_focus",
    "13.2/writer/full",
    "13.2/evaluator/full",
)

#: SHA-256 of each shipped template file, checked by the test suite: a template changes only
#: on purpose (then regenerate ``kernel/data/precompiled.json``, which lets a shipped
#: template skip the schema check; see :mod:`kernel.contract.precompiled`).
TEMPLATE_SHA256: Final = {
    "reviewer/full": "b96fe40f17a436d8ab8530f68ba076a5ba4e2d94c73d6fcc3c1097c0a4d2c4e4",
    "reviewer/methodology_focus": (
        "50f1a73a91d1c411a5551db29a076478cb4593475328f9020843539ba0654e36"
    ),
    "13.2/reviewer/full": "01294b903316868dbce5a95d1a6c7a4000a0740b68c08222159066569b69c7b7",
    "13.2/reviewer/methodology_focus": (
        "08398d13a7e579d23cf37de14130711844c32b93a1e4d394f3e22989aebc50f1"
    ),
    "13.2/writer/full": "54d58392fdd6787cb9dd8c0acfdbe050e137fc87a0f83277baf2c43cd65bba46",
    "13.2/evaluator/full": "360c7efd787fe2fd54de74f4999664dcdb47eb0b88aa24e79962f951557dfa33",
}


@functools.cache
def template_hint(name: str) -> str:
    """For a contract file that does not exist: the closest template name, worded to follow
    the read error (``""`` for a ``.json`` path, or when no name is close)."""
    from kernel.suggest import closest

    found = None if name.endswith(".json") else closest(name, TEMPLATE_NAMES)
    return "" if found is None else f" and no template of that name; did you mean {found!r}?"


def _read_text(relative: str) -> str:
    return package_data("kernel", f"data/{relative}").decode("utf-8")


@functools.cache
def _read_data(relative: str) -> Any:
    return loads_strict(_read_text(relative), source=f"kernel/data/{relative}")


def template_is_pristine(name: str) -> bool:
    """Whether the installed template file is byte for byte the one the tests validated."""
    import hashlib  # not needed on the start-up path

    digest = hashlib.sha256(_read_text(f"templates/{name}.json").encode("utf-8")).hexdigest()
    return TEMPLATE_SHA256.get(name) == digest


def schema() -> dict[str, Any]:
    """A fresh deep copy of the Schema 13 document."""
    return copy.deepcopy(_read_data("schema13.json"))


def schema_document(file: str) -> dict[str, Any]:
    """A fresh deep copy of one of the kernel's contract schemas (``schema13.json``,
    ``schema13_2.json``)."""
    return copy.deepcopy(_read_data(file))


def shipped_template(name: str) -> dict[str, Any]:
    """A fresh deep copy of a shipped template: ``"reviewer/full"``,
    ``"reviewer/methodology_focus"`` (Schema 13), or one of 13.2's under ``13.2/``
    (``reviewer/full``, ``reviewer/methodology_focus``, ``writer/full``, ``evaluator/full``)."""
    if not isinstance(name, str) or name not in TEMPLATE_NAMES:
        raise ContractError(
            f"no shipped template named {shown(name)}; known: {', '.join(TEMPLATE_NAMES)}"
        )
    return copy.deepcopy(_read_data(f"templates/{name}.json"))
