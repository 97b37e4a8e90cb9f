"""Rows, their one encoding, and the page layout every command's table shares."""
