"""The series service: series, tables, house rules, export/import; reads and writes storage."""
