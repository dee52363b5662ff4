"""Operations: the command line, the server, security, hardening, the PDF renderer."""
