"""The HTML pages, one blueprint (module or package) per area."""
