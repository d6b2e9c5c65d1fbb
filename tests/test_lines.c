/* test_lines.c: the one reader of text inputs (csim/core/lines.h): lines
 * of any length read whole and numbered as the file numbers them, a NUL
 * byte refused with its file, line and column, a layout with a NUL byte
 * refused so, not cut short. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/lines.h"
#include "run/layout.h"

#define TDIR BUILD_DIR "/test_lines"

static int setup(void **state)
{
    (void)state;
    return system("rm -rf " TDIR " && mkdir -p " TDIR) == 0 ? 0 : -1;
}

static void write_bytes(const char *path, const void *bytes, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(bytes, 1, n, f), n);
    assert_int_equal(fclose(f), 0);
}

static void test_a_line_longer_than_any_buffer_is_one_line(void **state)
{
    (void)state;
    enum { LONG = 100000 };
    char *bytes = malloc(LONG + 16);
    assert_non_null(bytes);
    memcpy(bytes, "# ", 2);
    memset(bytes + 2, 'x', LONG - 2);
    memcpy(bytes + LONG, "\nrow\nend", 8);
    write_bytes(TDIR "/long.txt", bytes, LONG + 8);
    free(bytes);
    wm_lines r;
    char err[256] = "", *line;
    size_t len;
    assert_true(wm_lines_open(&r, TDIR "/long.txt", err, sizeof err));
    assert_int_equal(wm_lines_next(&r, &line, &len, err, sizeof err), 1);
    assert_int_equal(r.line, 1);
    assert_int_equal(len, LONG);
    assert_int_equal(strlen(line), LONG);
    assert_true(r.newline);
    assert_int_equal(wm_lines_next(&r, &line, &len, err, sizeof err), 1);
    assert_int_equal(r.line, 2);
    assert_string_equal(line, "row");
    assert_int_equal(wm_lines_next(&r, &line, &len, err, sizeof err), 1);
    assert_int_equal(r.line, 3);
    assert_string_equal(line, "end");
    assert_false(r.newline); /* the last line, cut off */
    assert_int_equal(wm_lines_next(&r, &line, &len, err, sizeof err), 0);
    wm_lines_close(&r);
}

static void test_a_nul_byte_is_refused_with_its_line_and_column(void **state)
{
    (void)state;
    static const char bytes[] = "layout x\nrow tut\0orial\nrow b\n";
    write_bytes(TDIR "/nul.rows", bytes, sizeof bytes - 1);
    wm_lines r;
    char err[256] = "", *line;
    size_t len;
    assert_true(wm_lines_open(&r, TDIR "/nul.rows", err, sizeof err));
    assert_int_equal(wm_lines_next(&r, &line, &len, err, sizeof err), 1);
    assert_int_equal(wm_lines_next(&r, &line, &len, err, sizeof err), -1);
    assert_string_equal(err, TDIR "/nul.rows:2:8: a NUL byte: not a text file");
    wm_lines_close(&r);
    size_t size = 0;
    assert_null(wm_text_load(TDIR "/nul.rows", &size, err, sizeof err));
    assert_string_equal(err, TDIR "/nul.rows:2:8: a NUL byte: not a text file");
}

static void test_a_whole_file_is_its_lines(void **state)
{
    (void)state;
    static const char bytes[] = "a\n\nbc";
    write_bytes(TDIR "/whole.txt", bytes, sizeof bytes - 1);
    char err[256] = "";
    size_t size = 0;
    char *text = wm_text_load(TDIR "/whole.txt", &size, err, sizeof err);
    assert_non_null(text);
    assert_string_equal(text, "a\n\nbc\n");
    assert_int_equal(size, 6);
    free(text);
    assert_null(wm_text_load(TDIR, &size, err, sizeof err));
    assert_string_equal(err, TDIR ": cannot open: Is a directory");
    assert_null(wm_text_load(TDIR "/missing.txt", &size, err, sizeof err));
    assert_string_equal(err, TDIR "/missing.txt: cannot open: No such file or directory");
}

/* A NUL in a layout is refused where it is, not taken for the file's end
 * (which dropped the rest of the file with a message about what was
 * missing). */
static void test_a_layout_with_a_nul_byte_is_refused_there(void **state)
{
    (void)state;
    static const char bytes[] = "mesh 1 1\nregion all\0\nat a 0 0\npe a chain VAL=1 FIRST=1 LAST=1\n";
    write_bytes(TDIR "/nul.layout", bytes, sizeof bytes - 1);
    char *err = NULL;
    size_t size = 0;
    FILE *mem = open_memstream(&err, &size);
    assert_non_null(mem);
    wm_layout *l = wm_layout_load(TDIR "/nul.layout", NULL, 0, mem);
    fclose(mem);
    assert_null(l);
    assert_string_equal(err, TDIR "/nul.layout:2:11: a NUL byte: not a text file\n");
    free(err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a_line_longer_than_any_buffer_is_one_line),
        cmocka_unit_test(test_a_nul_byte_is_refused_with_its_line_and_column),
        cmocka_unit_test(test_a_whole_file_is_its_lines),
        cmocka_unit_test(test_a_layout_with_a_nul_byte_is_refused_there),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
