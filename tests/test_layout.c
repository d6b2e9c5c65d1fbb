/* test_layout.c: the layout format and every check it makes before a run,
 * each bad input answered with its file and line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "run/layout.h"

/* Parse text; returns the layout (or NULL) and the error text in *err. */
static wm_layout *parse(const char *text, const wm_setting *set, size_t n, char **err)
{
    size_t size = 0;
    FILE *mem = open_memstream(err, &size);
    assert_non_null(mem);
    wm_layout *l = wm_layout_parse(text, "t.layout", set, n, mem);
    fclose(mem);
    return l;
}

static void expect_error(const char *text, const char *message)
{
    char *err = NULL;
    wm_layout *l = parse(text, NULL, 0, &err);
    if (l || !strstr(err, message)) fail_msg("expected \"%s\", got \"%s\"", message, err);
    free(err);
}

static const char two_pes[] = "mesh 3 1\n"
                              "region all\n"
                              "at a 0 0\n"
                              "at p 2 0\n"
                              "pe a leaf VAL=5 SIDE=0 UPX=p.x UPY=p.y\n"
                              "pe p node ROOT=1 SIDE=0 UPX=p.x UPY=p.y LX=a.x LY=a.y CHILDREN=1\n";

static void test_references_resolve_to_coordinates(void **state)
{
    (void)state;
    char *err = NULL;
    wm_layout *l = parse(two_pes, NULL, 0, &err);
    assert_non_null(l);
    free(err);
    assert_int_equal(wm_layout_width(l), 3);
    assert_int_equal(wm_layout_count(l), 2);
    const wm_instance *a = wm_layout_find(l, "a");
    int64_t v;
    assert_true(wm_instance_param(a, "UPX", &v));
    assert_int_equal(v, 2);
    assert_true(wm_instance_param(wm_layout_find(l, "p"), "RX", &v));
    assert_int_equal(v, -1); /* the kernel's default */
    assert_string_equal(a->kernel->name, "leaf");
    wm_layout_destroy(l);
}

static void test_placements_are_selected_by_a_parameter(void **state)
{
    (void)state;
    const wm_setting tworow[] = {{"SHAPE", 1, NULL}, {"V1", 300, NULL}};
    wm_layout *l = wm_layout_load("sw/collectives/bench.layout", tworow, 2, stderr);
    assert_non_null(l);
    assert_string_equal(wm_layout_placement(l), "tworow");
    assert_int_equal(wm_layout_width(l), 4);
    assert_int_equal(wm_layout_height(l), 2);
    assert_true(wm_layout_enabled(l, 2, 0)); /* kernel-less, but forwards */
    const wm_instance *p1 = wm_layout_find(l, "p1");
    assert_int_equal(p1->x, 3);
    assert_int_equal(p1->y, 0);
    int64_t v;
    assert_true(wm_instance_param(wm_layout_find(l, "l1"), "VAL", &v));
    assert_int_equal(v, 300);
    assert_true(wm_instance_param(wm_layout_find(l, "l0"), "UPY", &v));
    assert_int_equal(v, 0);
    wm_layout_destroy(l);

    l = wm_layout_load("sw/collectives/bench.layout", NULL, 0, stderr);
    assert_non_null(l);
    assert_string_equal(wm_layout_placement(l), "tutorial");
    assert_true(wm_instance_param(wm_layout_find(l, "l0"), "UPX", &v));
    assert_int_equal(v, 4);
    wm_layout_destroy(l);
}

static void test_unknown_kernel(void **state)
{
    (void)state;
    expect_error("mesh 1 1\nregion all\nat a 0 0\npe a laef VAL=1\n", "t.layout:4: unknown kernel 'laef'");
}

static void test_pe_off_the_mesh(void **state)
{
    (void)state;
    expect_error("mesh 3 1\nregion all\nat a 0 0\nat p 3 0\n"
                 "pe a leaf VAL=5 SIDE=0 UPX=p.x UPY=p.y\n"
                 "pe p node ROOT=1 SIDE=0 UPX=p.x UPY=p.y LX=a.x LY=a.y CHILDREN=1\n",
                 "t.layout:4: p at (3,0) is off the 3x1 mesh");
}

static void test_two_kernels_on_one_pe(void **state)
{
    (void)state;
    expect_error("mesh 3 1\nregion all\nat a 0 0\nat p 0 0\n"
                 "pe a leaf VAL=5 SIDE=0 UPX=p.x UPY=p.y\n"
                 "pe p node ROOT=1 SIDE=0 UPX=p.x UPY=p.y LX=a.x LY=a.y CHILDREN=1\n",
                 "t.layout:4: two kernels on PE (0,0): p (node) and a (leaf, line 3)");
}

static void test_reference_to_an_unknown_instance(void **state)
{
    (void)state;
    expect_error("mesh 3 1\nregion all\nat a 0 0\n"
                 "pe a leaf VAL=5 SIDE=0 UPX=q.x UPY=0\n",
                 "t.layout:4: UPX=q.x refers to unknown instance q");
}

static void test_missing_parameter(void **state)
{
    (void)state;
    expect_error("mesh 3 1\nregion all\nat a 0 0\n"
                 "pe a leaf VAL=5 UPX=0 UPY=0\n",
                 "t.layout:4: a (kernel leaf) is missing parameter SIDE");
    expect_error("mesh 3 1\nregion all\nat a 0 0\n"
                 "pe a leaf VAL=5 SIDE=0 UPX=0 UPY=0 COLOR=2\n",
                 "t.layout:4: kernel leaf has no parameter COLOR");
    expect_error("mesh 3 1\nregion all\nat a 0 0\n"
                 "pe a leaf VAL=$V5 SIDE=0 UPX=0 UPY=0\n",
                 "t.layout:4: unknown layout parameter 'V5'");
}

/* A value outside the kernel's declared range never reaches the kernel:
 * the layout is refused, naming the instance, its kernel and its PE. */
static void test_parameter_out_of_its_range(void **state)
{
    (void)state;
    expect_error("mesh 3 1\nregion all\nat a 0 0\nat p 2 0\n"
                 "pe a leaf VAL=5 SIDE=0 UPX=p.x UPY=1100\n"
                 "pe p node ROOT=1 SIDE=0 UPX=p.x UPY=p.y LX=a.x LY=a.y CHILDREN=1\n",
                 "t.layout:5: a (kernel leaf, PE (0,0)): UPY=1100 is outside its range 0..1023");
    expect_error("mesh 3 1\nregion all\nat a 0 0\nat p 2 0\n"
                 "pe a leaf VAL=5 SIDE=0 UPX=p.x UPY=p.y\n"
                 "pe p node ROOT=1 SIDE=2 UPX=p.x UPY=p.y LX=a.x LY=a.y CHILDREN=1\n",
                 "t.layout:6: p (kernel node, PE (2,0)): SIDE=2 is outside its range 0..1");
    expect_error("mesh 3 1\nregion all\nat a 0 0\nat p 2 0\n"
                 "pe a leaf VAL=5 SIDE=0 UPX=p.x UPY=p.y\n"
                 "pe p node ROOT=1 SIDE=0 UPX=p.x UPY=p.y LX=a.x LY=a.y CHILDREN=3\n",
                 "t.layout:6: p (kernel node, PE (2,0)): CHILDREN=3 is outside its range 1..2");
    expect_error("mesh 3 1\nregion all\nat a 0 0\n"
                 "pe a allreduce VAL=4294967296 ROOT=1\n",
                 "t.layout:4: a (kernel allreduce, PE (0,0)): VAL=4294967296 is outside its range -2147483648..2147483647");
}

/* Values are words: a leaf's VAL (and the chain's) is accepted in
 * -2^31..2^31-1, not up to 2^32-1, and a value a setting gave names the
 * setting and where it was given. */
static void test_a_value_is_a_signed_word(void **state)
{
    (void)state;
    static const char leaf[] = "param V 0\nmesh 3 1\nregion all\nat a 0 0\nat p 2 0\n"
                               "pe a leaf VAL=$V SIDE=0 UPX=p.x UPY=p.y\n"
                               "pe p node ROOT=1 SIDE=0 UPX=p.x UPY=p.y LX=a.x LY=a.y CHILDREN=1\n";
    char *err = NULL;
    const wm_setting top[] = {{"V", INT32_MAX, NULL}}, bottom[] = {{"V", INT32_MIN, NULL}};
    wm_layout *l = parse(leaf, top, 1, &err);
    assert_non_null(l);
    wm_layout_destroy(l);
    free(err);
    assert_non_null(l = parse(leaf, bottom, 1, &err));
    wm_layout_destroy(l);
    free(err);
    const wm_setting over[] = {{"V", (int64_t)INT32_MAX + 1, NULL}};
    assert_null(parse(leaf, over, 1, &err));
    assert_string_equal(err, "t.layout:6: a (kernel leaf, PE (0,0)): VAL=2147483648 is outside its range "
                             "-2147483648..2147483647 (VAL=$V, given by --set V=2147483648)\n");
    free(err);
    const wm_setting row[] = {{"V", (int64_t)INT32_MIN - 1, "my.rows:4"}};
    assert_null(parse(leaf, row, 1, &err));
    assert_string_equal(err, "t.layout:6: a (kernel leaf, PE (0,0)): VAL=-2147483649 is outside its range "
                             "-2147483648..2147483647 (VAL=$V, given by my.rows:4 V=-2147483649)\n");
    free(err);
    expect_error("mesh 1 1\nregion all\nat a 0 0\npe a chain VAL=4294967295 FIRST=1 LAST=1\n",
                 "t.layout:4: a (kernel chain, PE (0,0)): VAL=4294967295 is outside its range -2147483648..2147483647\n");
}

/* An instance name is its tile's scope in a dump, kept whole: a name of
 * 63 characters is taken, a longer one refused at its line, so two long
 * names never share a scope. */
static void test_instance_names_are_kept_whole_or_refused(void **state)
{
    (void)state;
    char name[80], text[400], *err = NULL;
    memset(name, 'n', 63);
    name[63] = '\0';
    snprintf(text, sizeof text, "mesh 1 1\nregion all\nat %s 0 0\npe %s chain VAL=1 FIRST=1 LAST=1\n", name, name);
    wm_layout *l = parse(text, NULL, 0, &err);
    assert_non_null(l);
    assert_string_equal(wm_layout_instance(l, 0)->name, name);
    wm_layout_destroy(l);
    free(err);
    strcat(name, "x");
    snprintf(text, sizeof text, "mesh 1 1\nregion all\nat %s 0 0\npe %s chain VAL=1 FIRST=1 LAST=1\n", name, name);
    expect_error(text, "t.layout:4: instance name nnnnnnnnnnnnnnnnnnnn... is 64 characters long; at most 63 (it "
                       "names its tile in a dump)\n");
}

/* The seed's pitfall: (2,0) lies on the path from p1 to the root. */
static void test_path_leaving_the_region(void **state)
{
    (void)state;
    expect_error("mesh 4 1\nregion 0 0 2 1\nregion 3 0 1 1\nat a 0 0\nat p 3 0\n"
                 "pe a leaf VAL=5 SIDE=0 UPX=p.x UPY=p.y\n"
                 "pe p node ROOT=1 SIDE=0 UPX=p.x UPY=p.y LX=a.x LY=a.y CHILDREN=1\n",
                 "t.layout:6: the path from a (0,0) to p (3,0) leaves the message-passing region at (2,0)");
    expect_error("mesh 3 1\nat a 0 0\nat p 2 0\n"
                 "pe a leaf VAL=5 SIDE=0 UPX=p.x UPY=p.y\n"
                 "pe p node ROOT=1 SIDE=0 UPX=p.x UPY=p.y LX=a.x LY=a.y CHILDREN=1\n",
                 "leaves the message-passing region at (0,0)");
}

/* A rectangle is checked number by number, never by a sum that could
 * overflow: a width of INT64_MAX from column 1 is refused as plainly as a
 * width of 5 is, with its line. */
static void test_region_with_huge_numbers_is_refused_with_its_line(void **state)
{
    (void)state;
    static const char *const rects[] = {
        "1 0 5 1",
        "1 0 9223372036854775807 1",
        "0 1 1 9223372036854775807",
        "9223372036854775807 0 9223372036854775807 1",
        "-9223372036854775808 0 9223372036854775807 1",
        "0 0 -9223372036854775808 1",
        "4 0 1 1",
        "0 0 0 1",
    };
    for (size_t i = 0; i < sizeof rects / sizeof rects[0]; i++) {
        char text[256], message[256];
        snprintf(text, sizeof text, "mesh 4 1\nregion 0 0 1 1\nregion %s\n", rects[i]);
        snprintf(message, sizeof message, "t.layout:3: region %s is not inside the 4x1 mesh", rects[i]);
        expect_error(text, message);
    }
    /* and the largest that fits is accepted */
    char *err = NULL;
    wm_layout *l = parse("mesh 4 2\nregion 1 1 3 1\n", NULL, 0, &err);
    assert_non_null(l);
    assert_false(wm_layout_enabled(l, 0, 1));
    assert_true(wm_layout_enabled(l, 3, 1));
    assert_false(wm_layout_enabled(l, 3, 0));
    wm_layout_destroy(l);
    free(err);
}

/* The seed's tworow with the kernel-less PE (2,0) left out of the region. */
static void test_tworow_needs_the_forwarding_pe_in_the_region(void **state)
{
    (void)state;
    FILE *f = fopen("sw/collectives/bench.layout", "r");
    assert_non_null(f);
    static char text[8192], edited[8300];
    text[fread(text, 1, sizeof text - 1, f)] = '\0';
    fclose(f);
    char *region = strstr(text, "region all\n");
    assert_non_null(region);
    *region = '\0';
    snprintf(edited, sizeof edited, "%sregion 0 0 2 2\nregion 3 0 1 2\n%s", text, region + strlen("region all\n"));
    const wm_setting tworow[] = {{"SHAPE", 1, NULL}};
    char *err = NULL;
    wm_layout *l = parse(edited, tworow, 1, &err);
    assert_null(l);
    if (!strstr(err, "the path from p1 (3,0) to root (1,0) leaves the message-passing region at (2,0)") ||
        !strstr(err, "the path from root (1,0) to p1 (3,0) leaves the message-passing region at (2,0)"))
        fail_msg("got: %s", err);
    free(err);
}

static void test_settings_and_placements_are_checked(void **state)
{
    (void)state;
    char *err = NULL;
    const wm_setting bad[] = {{"SHAP", 1, NULL}};
    wm_layout *l = parse("param SHAPE 0\nmesh 1 1\n", bad, 1, &err);
    assert_null(l);
    assert_non_null(strstr(err, "--set SHAP: the layout declares no parameter SHAP"));
    free(err);
    const wm_setting three[] = {{"SHAPE", 3, NULL}};
    l = parse("param SHAPE 0\nplacement one when SHAPE=0\nmesh 1 1\nend\nplacement two when SHAPE=1\nmesh 2 1\nend\n",
              three, 1, &err);
    assert_null(l);
    assert_non_null(strstr(err, "no placement is selected by the parameters; placements: one (SHAPE=0), two (SHAPE=1)"));
    free(err);
    expect_error("param SHAPE 0\nplacement one when SHAPE=0\nmesh 1 1\n", "t.layout:2: placement without `end`");
    expect_error("mesh 1 1\nfoo 1 2\n", "t.layout:2: unknown statement 'foo'");
    expect_error("region all\n", "t.layout: no `mesh WIDTH HEIGHT` line");
    expect_error("mesh 3 1\nregion all\npe a leaf VAL=5 SIDE=0 UPX=0 UPY=0\n",
                 "t.layout:3: instance a has no `at INSTANCE X Y` line");
}

static void test_every_error_is_reported_in_one_pass(void **state)
{
    (void)state;
    char *err = NULL;
    wm_layout *l = parse("mesh 1 1\npe a nope\npe b nope2\n", NULL, 0, &err);
    assert_null(l);
    assert_non_null(strstr(err, "t.layout:2: unknown kernel 'nope'"));
    assert_non_null(strstr(err, "t.layout:3: unknown kernel 'nope2'"));
    free(err);
}

static void test_setting_parse(void **state)
{
    (void)state;
    char ok[] = "V3=-40", bad[] = "V3=x", worse[] = "3V=1";
    wm_setting s;
    assert_true(wm_setting_parse(ok, &s));
    assert_string_equal(s.name, "V3");
    assert_int_equal(s.value, -40);
    assert_false(wm_setting_parse(bad, &s));
    assert_false(wm_setting_parse(worse, &s));
    /* decimal, or hex after 0x; a leading zero is not octal */
    char ten[] = "V=010", hex[] = "V=0x1f", negative_hex[] = "V=-0x10", not_octal[] = "V=09";
    assert_true(wm_setting_parse(ten, &s));
    assert_int_equal(s.value, 10);
    assert_true(wm_setting_parse(hex, &s));
    assert_int_equal(s.value, 31);
    assert_true(wm_setting_parse(negative_hex, &s));
    assert_int_equal(s.value, -16);
    assert_true(wm_setting_parse(not_octal, &s));
    assert_int_equal(s.value, 9);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_references_resolve_to_coordinates),
        cmocka_unit_test(test_placements_are_selected_by_a_parameter),
        cmocka_unit_test(test_unknown_kernel),
        cmocka_unit_test(test_pe_off_the_mesh),
        cmocka_unit_test(test_two_kernels_on_one_pe),
        cmocka_unit_test(test_reference_to_an_unknown_instance),
        cmocka_unit_test(test_missing_parameter),
        cmocka_unit_test(test_parameter_out_of_its_range),
        cmocka_unit_test(test_a_value_is_a_signed_word),
        cmocka_unit_test(test_instance_names_are_kept_whole_or_refused),
        cmocka_unit_test(test_path_leaving_the_region),
        cmocka_unit_test(test_region_with_huge_numbers_is_refused_with_its_line),
        cmocka_unit_test(test_tworow_needs_the_forwarding_pe_in_the_region),
        cmocka_unit_test(test_settings_and_placements_are_checked),
        cmocka_unit_test(test_every_error_is_reported_in_one_pass),
        cmocka_unit_test(test_setting_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
