"""Fixtures of the adapters' tests."""

import pytest

from tests.ai.extra import need


@pytest.fixture(scope="module")
def pyspiel():
    """OpenSpiel's module with the game registered (skipped without the ai extra, see extra.py)."""
    module = need("pyspiel")
    import generator.ai.openspiel  # noqa: F401 (registers county_uppy)
    return module
