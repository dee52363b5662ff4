"""HTTP helpers shared by pages and API: conditional GET, links, edit rights, recent, shell."""
