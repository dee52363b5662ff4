"""The rules of «Сто одно» as plain Python: no web, no database, stdlib only."""
