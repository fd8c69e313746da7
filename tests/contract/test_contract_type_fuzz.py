"""The contract layer on any JSON: a template of either dialect with values of any JSON
type at any place (ids, roles, priorities, modes as lists, objects, numbers) gives messages
or a ``KernelError``, never a ``TypeError`` or another escape."""

from __future__ import annotations

import contextlib
from typing import Any

from hypothesis import example, given
from hypothesis import strategies as st
from support import fuzz

from kernel import KernelError, load_contract, shipped_template
from kernel.contract import check_structural_invariants, validate, warn_suspicious
from kernel.contract.templates import TEMPLATE_NAMES
from kernel.contract.warnings import check_contract

#: Values shaped like the fields they replace, and of every other JSON type.
VALUES = fuzz.JSON | st.sampled_from(
    [["D1"], {"id": "D1"}, ["eic"], [["eic"]], ["mandatory"], [None], [1, "eic"], {"eic": 1}]
)


def _templates() -> st.SearchStrategy[dict[str, Any]]:
    return st.sampled_from(sorted(TEMPLATE_NAMES)).map(shipped_template)


def _with_dimension(field: str, value: Any) -> dict[str, Any]:
    data = shipped_template("13.2/reviewer/full")
    data["acceptance_dimensions"][0][field] = value
    return data


def _every_reader(data: Any) -> None:
    for read in (
        lambda: check_structural_invariants(data),
        lambda: warn_suspicious(data),
        lambda: validate(data),
        lambda: check_contract(data),
        lambda: check_contract(data, dialect="13"),
        lambda: check_contract(data, dialect="13.2"),
        lambda: load_contract(data),
        lambda: load_contract(data, dialect="13.2"),
    ):
        with contextlib.suppress(KernelError):
            read()


@given(_templates().flatmap(lambda t: fuzz.mutated(t, VALUES)))
@example(_with_dimension("id", ["D1"]))  # regression (issue 30): TypeError, unhashable list
@example(_with_dimension("id", {"D": 1}))
def test_no_type_escapes_from_the_contract_layer(data: Any) -> None:
    _every_reader(data)
