from hyper.render.table import table


def test_columns_take_the_widest_cell_plus_two_and_the_last_is_unpadded() -> None:
    out = table([["NAME", "KIND", "SUMMARY"], ["destroy", "destroy", "x"], ["read", "read", "longer text"]])
    assert out == "NAME     KIND     SUMMARY\ndestroy  destroy  x\nread     read     longer text\n"


def test_no_line_carries_trailing_whitespace() -> None:
    out = table([["A", "B", ""], ["aaaa", "", ""]])
    assert all(line == line.rstrip() for line in out.splitlines())
    assert out == "A     B\naaaa\n"


def test_widths_count_code_points() -> None:
    out = table([["é", "x"], ["ab", "y"]])
    assert out == "é   x\nab  y\n"


def test_a_multi_line_cell_stacks_with_blank_cells_beneath() -> None:
    out = table([["a", "one\ntwo", "z"], ["b", "three", "w"]])
    assert out == "a  one    z\n   two\nb  three  w\n"


def test_ragged_lines_align_per_column_block() -> None:
    # a line with fewer cells ends the block, as Go's tabwriter does
    out = table([["LABEL", "v"], ["LONGER LABEL", "v"], ["x"], ["ab", "cd"]])
    assert out == "LABEL         v\nLONGER LABEL  v\nx\nab  cd\n"


def test_no_rows_writes_nothing() -> None:
    assert table([]) == ""


def test_indent_is_applied_after_trimming() -> None:
    assert table([["a", ""]], indent="  ") == "  a\n"
