"""Cards: faces composed, pictures and symbols drawn, sheets imposed, and card PDFs rendered."""
