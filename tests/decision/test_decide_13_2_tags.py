"""A 13.2 matrix that leaves out one eligible seat's value carries the protocol's tag, as a
dropped seat does (issue 38)."""

from __future__ import annotations

from typing import Any

import pytest
from support import paths

from kernel import decide, load_contract
from kernel.errors import MatrixError, SeatDropped

CONTRACT = load_contract(str(paths.EXAMPLES / "full-13.2" / "contract.json"))


def _matrix() -> dict[str, dict[str, Any]]:
    return {
        d.id: {r: "pass" if r in d.eligible_roles else "not_assessed" for r in CONTRACT.roles}
        for d in CONTRACT.dimensions
    }


@pytest.mark.parametrize("position", range(len(CONTRACT.dimensions)))
def test_one_eligible_value_missing_in_one_dimension_is_tagged(position: int) -> None:
    matrix = _matrix()
    dim = CONTRACT.dimensions[position]
    role = dim.eligible_roles[-1]
    del matrix[dim.id][role]
    with pytest.raises(MatrixError) as raised:
        decide(CONTRACT, matrix)
    assert f"missing the value of eligible role {role}" in raised.value.message
    assert raised.value.tag == f"[REPORT-PARSE: {role}: missing Dimension Scores for ['{dim.id}']]"


def test_every_dimension_the_seat_leaves_out_is_named_in_contract_order() -> None:
    matrix = _matrix()
    role = "da"
    left_out = [d.id for d in CONTRACT.dimensions if role in d.eligible_roles][:2]
    for dim_id in left_out:
        del matrix[dim_id][role]
    with pytest.raises(MatrixError) as raised:
        decide(CONTRACT, matrix)
    assert raised.value.tag == f"[REPORT-PARSE: {role}: missing Dimension Scores for {left_out!r}]"


def test_a_seat_with_no_value_anywhere_keeps_the_panel_tag() -> None:
    matrix = _matrix()
    for row in matrix.values():
        row.pop("da", None)
    with pytest.raises(SeatDropped) as raised:
        decide(CONTRACT, matrix)
    assert raised.value.tag is not None and raised.value.tag.startswith("[PANEL-CARDINALITY")
