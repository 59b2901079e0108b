"""`solver=cbc` in the two builds of the package (docs/python.md, "Install"): the Debian build
solves with CBC; the build on PyPI's torch has no CBC (PyPI has no CBC library) and answers an
error that says so and names the solver to use."""

import pytest

import gaus
from test_agreement import EXPECTED_LATENCY, diamond


def test_ilp_with_cbc_solves_or_names_the_missing_solver():
    if gaus.built_torch_version() is None:
        # Debian's CBC: the same optimum as HiGHS (test_agreement.py derives it by hand).
        result = gaus.schedule(diamond(), method="ilp", solver="cbc", time_limit=20)
        assert result.objective == EXPECTED_LATENCY and result.verified
        return
    with pytest.raises(gaus.Error) as error:
        gaus.schedule(diamond(), method="ilp", solver="cbc", time_limit=20)
    assert "built without CBC" in str(error.value)
    assert "solver=highs" in str(error.value)
