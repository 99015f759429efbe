"""The README's Python examples run and print what they claim."""
import doctest
import pathlib

import pytest

README = pathlib.Path(__file__).resolve().parent.parent / "README.md"


@pytest.mark.slow
@pytest.mark.skipif(not README.exists(), reason="README.md is not beside tests/")
def test_readme_examples():
    result = doctest.testfile(str(README), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0
