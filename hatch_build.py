"""Wheel build hook: put the templates, the static files and the compiled translations into the package.

In the repository `templates/` and `static/` sit at the top level; in the wheel
they become `companion/templates` and `companion/static`, next to the code
(`companion.asset_folder` looks there first). The Russian `.po` files (one per
area) are merged and compiled into one `messages.mo` per language at build
time, so the installed app never writes a catalog anywhere.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CompanionBuildHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return  # an editable install reads everything from the checkout
        root = Path(self.root)
        force = build_data.setdefault("force_include", {})
        force[str(root / "templates")] = "companion/templates"
        force[str(root / "static")] = "companion/static"
        self._compiled = tempfile.TemporaryDirectory(prefix="companion-mo-")
        for language_folder in sorted((root / "companion" / "translations").glob("*/LC_MESSAGES")):
            mo = Path(self._compiled.name) / language_folder.parent.name / "messages.mo"
            mo.parent.mkdir(parents=True)
            mo.write_bytes(compile_folder(language_folder))
            force[str(mo)] = f"companion/translations/{language_folder.parent.name}/LC_MESSAGES/messages.mo"

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        compiled = getattr(self, "_compiled", None)
        if compiled is not None:
            compiled.cleanup()


def compile_folder(folder: Path) -> bytes:
    """The same merge as `companion.i18n.compiled_catalog` (imported from the source tree, not installed)."""
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location(
        "_companion_catalogs", folder.parents[2] / "i18n" / "catalogs.py"
    )  # companion/i18n/catalogs.py
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    data: bytes | None = module.compiled_catalog(folder)
    if data is None:
        raise RuntimeError(f"no .po files in {folder}")
    return data
