"""The rules core imports nothing but the standard library and itself, and type-checks under mypy --strict."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "companion" / "core"


def test_core_uses_only_the_standard_library() -> None:
    for path in CORE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                assert not node.level, f"{path.name}: imports are absolute"
                names = [node.module or ""]
            else:
                continue
            for name in names:
                if name == "companion.core" or name.startswith("companion.core."):
                    continue  # the core itself
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top == "__future__", f"{path.name} imports {name}"


@pytest.mark.slow
def test_core_passes_mypy_strict(tmp_path: Path) -> None:
    from mypy import api

    stdout, stderr, status = api.run(["--strict", "--follow-imports=silent", "--cache-dir", str(tmp_path), str(CORE)])
    assert status == 0, stdout + stderr
