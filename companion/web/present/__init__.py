"""View-models and text: what the pages, the PDF, the CSV and the JSON read."""
