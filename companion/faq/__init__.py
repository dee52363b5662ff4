"""The FAQ: entries (one TOML file each), values filled from the rules, sources, search."""
