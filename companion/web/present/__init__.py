"""View-models and text for the pages, the PDF, the CSV and the JSON API: they arrange what the core derives."""
