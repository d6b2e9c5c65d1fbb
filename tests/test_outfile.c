/* test_outfile.c: every output of every command goes through one routine
 * (csim/waves/outfile.h), and it respects what is there. A table: each
 * output (a layout, a dump and its save file and filters, a save file
 * alone, a heatmap's PNG, a regression log) written onto each kind of
 * name: a new one, an existing regular file, a symbolic link to a file,
 * /dev/null, a FIFO with a reader, a directory, and a name whose side
 * file's name is taken by a directory. Then the routine itself: a failed
 * publication removes only what it made. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "waves/outfile.h"

#define ODIR BUILD_DIR "/tests/outfile"

typedef struct {
    const char *what;
    const char *cmd;     /* %s: the name given */
    const char *ext;     /* the name given is DIR/out + ext */
    const char *written; /* the file written is the name given + written */
    const char *side;    /* a side file, DIR/out + side, or NULL */
    bool plain;          /* any name will do: /dev/null itself is given too */
} output;

static const output outputs[] = {
    {"tree -o", "$W tree --leaves 4 --placement row -o %s", ".layout", "", NULL, true},
    {"gs --write-layout", "$W gs --ranks 2x2 --backend sw --write-layout %s", ".layout", "", NULL, true},
    {"run --trace (sw, FST)", "$W run sw/collectives/bench.layout --backend sw --trace %s", ".fst", "", ".gtkw", false},
    {"run --trace (rtl, VCD)", "$W run sw/collectives/bench.layout --backend rtl --trace %s", ".vcd", "", "-state.txt",
     false},
    {"run --trace (rtl, FST)", "$W run sw/collectives/bench.layout --backend rtl --trace %s", ".fst", "", ".gtkw", false},
    {"run --trace (sw, cores, FST)", "$W run sw/collectives/bench.layout --backend sw --pe core --trace %s", ".fst", "",
     "-insn.txt", false},
    {"traffic --trace", "$W traffic --backend sw --mesh 2x2 --cycles 200 --trace %s", ".vcd", "", "-headers.txt", false},
    {"waves -o", "$W waves sw/collectives/bench.layout -o %s", ".gtkw", "", "-owner.txt", false},
    {"heatmap -o", "$W heatmap sw/collectives/bench.layout -o %s", "", "-upsweep.png", NULL, false},
    {"regress --log", "$W regress --random 1 --seed 3 --max-side 3 --log %s", ".log", "", NULL, true},
    {"profile --csv", "$W profile sw/collectives/bench.layout --backend sw --csv %s", ".csv", "", NULL, true},
    {"profile --chrome", "$W profile sw/collectives/bench.layout --backend sw --chrome %s", ".json", "", NULL, true},
    {"profile --folded", "$W profile sw/collectives/bench.layout --backend sw --folded %s", ".folded", "", NULL, true},
    {"profile --png", "$W profile sw/collectives/bench.layout --backend sw --png %s", ".png", "", NULL, true},
};

/* /dev/null, or, run as root, a null device of our own: a regression that
 * replaced the name would otherwise take the machine's /dev/null with it
 * (only root can; for anyone else the real one is safe to use). */
static char null_device[300] = "/dev/null";

static void make_null_device(void)
{
    if (geteuid() != 0) return;
    unlink(ODIR "/null");
    char cwd[200];
    /* absolute: the links to it are made in other folders */
    if (getcwd(cwd, sizeof cwd) && mknod(ODIR "/null", S_IFCHR | 0666, makedev(1, 3)) == 0)
        snprintf(null_device, sizeof null_device, BUILD_DIR[0] == '/' ? "%.0s%s" : "%s/%s", cwd, ODIR "/null");
    else fail_msg("running as root, cannot make a null device of the test's own: refusing to write onto /dev/null");
}

typedef enum { NEW, REGULAR, SYMLINK, DEVNULL_LINK, DEVNULL, FIFO, DIRECTORY, SIDE_DIRECTORY, NKINDS } kind;
static const char *const kind_names[NKINDS] = {"a new name", "a regular file", "a symlink to a file",
                                               "a symlink to /dev/null", "/dev/null", "a FIFO with a reader",
                                               "a directory", "a side file's name taken by a directory"};

static bool is(const char *path, mode_t type)
{
    struct stat st;
    return lstat(path, &st) == 0 && (st.st_mode & S_IFMT) == type;
}

static long size_of(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* A temporary (NAME.PID.part) left in dir or below. */
static bool temporary_left(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "find %s -name '*.part*' | grep -q .", dir);
    return system(cmd) == 0;
}

static char *slurp(const char *path)
{
    static char buf[8192];
    FILE *f = fopen(path, "rb");
    if (!f) return strcpy(buf, "");
    const size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void write_text(const char *path, const char *text, mode_t mode)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    assert_int_equal(fclose(f), 0);
    assert_int_equal(chmod(path, mode), 0);
}

/* The command on name, from the top of the tree; its exit status. */
static int run(const output *o, const char *name, const char *err)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, o->cmd, name);
    const pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        const int null = open("/dev/null", O_WRONLY), e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (null < 0 || e < 0 || dup2(null, 1) < 0 || dup2(e, 2) < 0) _exit(99);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(98);
    }
    int status = 0;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* One output onto one kind of name; NULL when it behaved, else why not. */
static const char *one(const output *o, kind k, const char dir[300], char *err_text, size_t err_size)
{
    char cmd[1000], given[600], file[700], side[700], real[700], err[700];
    snprintf(cmd, sizeof cmd, "rm -rf %s && mkdir -p %s/real", dir, dir);
    assert_int_equal(system(cmd), 0);
    snprintf(given, sizeof given, "%s/out%s", dir, o->ext);
    snprintf(file, sizeof file, "%s%s", given, o->written);
    snprintf(side, sizeof side, "%s/out%s", dir, o->side ? o->side : "");
    snprintf(real, sizeof real, "%s/real/target", dir);
    snprintf(err, sizeof err, "%s.err", dir);
    pid_t reader = -1;
    switch (k) {
    case NEW: break;
    case REGULAR: write_text(file, "old\n", 0640); break;
    case SYMLINK:
        write_text(real, "old\n", 0644);
        assert_int_equal(symlink("real/target", file), 0);
        break;
    case DEVNULL_LINK: assert_int_equal(symlink(null_device, file), 0); break;
    case DEVNULL:
        if (!o->plain) return "";
        snprintf(given, sizeof given, "%s", null_device);
        snprintf(file, sizeof file, "%s", null_device);
        break;
    case FIFO:
        assert_int_equal(mkfifo(file, 0644), 0);
        reader = fork();
        assert_true(reader >= 0);
        if (reader == 0) {
            alarm(20); /* a FIFO nobody writes into: the reader gives up */
            const int in = open(file, O_RDONLY), out = open(real, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            char buf[4096];
            ssize_t n;
            while (in >= 0 && (n = read(in, buf, sizeof buf)) > 0)
                if (write(out, buf, (size_t)n) != n) _exit(1);
            _exit(0);
        }
        break;
    case DIRECTORY: assert_int_equal(mkdir(file, 0755), 0); break;
    case SIDE_DIRECTORY:
        if (!o->side) return "";
        assert_int_equal(mkdir(side, 0755), 0);
        break;
    default: break;
    }
    const int status = run(o, given, err);
    if (reader > 0) {
        int st;
        assert_int_equal(waitpid(reader, &st, 0), reader);
    }
    snprintf(err_text, err_size, "%s", slurp(err));
    if (temporary_left(dir)) return "a temporary was left behind";
    switch (k) {
    case NEW:
        if (status) return "failed";
        if (!is(file, S_IFREG) || size_of(file) <= 0) return "no file written";
        if (o->side && !is(side, S_IFREG)) return "its side file is missing";
        return NULL;
    case REGULAR: {
        if (status) return "failed";
        struct stat st;
        if (!is(file, S_IFREG) || size_of(file) <= 4) return "the file was not replaced";
        if (stat(file, &st) != 0 || (st.st_mode & 07777) != 0640) return "the file's permission bits were not kept";
        return NULL;
    }
    case SYMLINK:
        if (status) return "failed";
        if (!is(file, S_IFLNK)) return "the link was replaced";
        if (size_of(real) <= 4) return "the link's target was not written";
        return NULL;
    case DEVNULL_LINK:
    case DEVNULL:
        if (status) return "failed";
        if (!is(null_device, S_IFCHR)) return "/dev/null is no longer a device";
        if (k == DEVNULL_LINK && !is(file, S_IFLNK)) return "the link was replaced";
        return NULL;
    case FIFO:
        if (status) return "failed";
        if (!is(file, S_IFIFO)) return "the FIFO was replaced";
        if (size_of(real) <= 0) return "the FIFO's reader got nothing";
        return NULL;
    case DIRECTORY:
        if (status == 0) return "not refused";
        if (!strstr(err_text, "Is a directory")) return "no 'Is a directory' in the message";
        if (!is(file, S_IFDIR)) return "the directory is gone";
        return NULL;
    case SIDE_DIRECTORY:
        if (status == 0) return "not refused";
        if (!strstr(err_text, "Is a directory")) return "no 'Is a directory' in the message";
        if (!is(side, S_IFDIR)) return "the directory is gone";
        if (size_of(file) >= 0) return "the output was written without its side file";
        return NULL;
    default: return NULL;
    }
}

static void test_every_output_onto_every_kind_of_name(void **state)
{
    (void)state;
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    char w[4200];
    snprintf(w, sizeof w, BUILD_DIR[0] == '/' ? "%.0s%s" : "%s/%s", cwd, BUILD_DIR "/wavemesh");
    setenv("W", w, 1);
    make_null_device();
    size_t bad = 0, cases = 0;
    for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++)
        for (int k = 0; k < NKINDS; k++) {
            char dir[300], err[8192];
            snprintf(dir, sizeof dir, ODIR "/o%zu-k%d", i, k);
            const char *why = one(&outputs[i], (kind)k, dir, err, sizeof err);
            if (why && !*why) continue; /* does not apply */
            cases++;
            if (!why) continue;
            bad++;
            print_error("%s onto %s: %s\n  stderr: %s\n", outputs[i].what, kind_names[k], why, err);
        }
    assert_int_equal(bad, 0);
    printf("outputs: %zu cases, %zu outputs onto %d kinds of name, each as outfile.h says\n", cases,
           sizeof outputs / sizeof outputs[0], NKINDS);
}

/* A publication that fails removes what the routine made, and only that:
 * an existing file keeps its content, a new name stays free, and the
 * names of other files nearby are not touched. */
static void test_a_failed_publication_removes_only_what_it_made(void **state)
{
    (void)state;
    assert_int_equal(system("rm -rf " ODIR "/api && mkdir -p " ODIR "/api/empty.gtkw"), 0);
    write_text(ODIR "/api/kept.layout", "keep\n", 0644);
    write_text(ODIR "/api/other-state.txt", "mine\n", 0644);
    char err[4400];
    wm_outfile_hold();
    wm_outfile *a = wm_outfile_begin(ODIR "/api/kept.layout", true, err, sizeof err);
    wm_outfile *b = wm_outfile_begin(ODIR "/api/new.layout", true, err, sizeof err);
    assert_non_null(a);
    assert_non_null(b);
    fputs("replaced\n", wm_outfile_stream(a));
    fputs("new\n", wm_outfile_stream(b));
    assert_true(wm_outfile_commit(a, err, sizeof err));
    assert_true(wm_outfile_commit(b, err, sizeof err));
    /* held: nothing published yet; the dump reads from where it is */
    assert_string_equal(slurp(ODIR "/api/kept.layout"), "keep\n");
    /* a side file onto a folder fails: everything held goes */
    assert_null(wm_outfile_begin(ODIR "/api/empty.gtkw", true, err, sizeof err));
    assert_non_null(strstr(err, "cannot write " ODIR "/api/empty.gtkw: Is a directory"));
    assert_false(wm_outfile_release(false, err, sizeof err));
    assert_string_equal(slurp(ODIR "/api/kept.layout"), "keep\n");
    assert_int_equal(size_of(ODIR "/api/new.layout"), -1);
    assert_true(is(ODIR "/api/empty.gtkw", S_IFDIR));
    assert_string_equal(slurp(ODIR "/api/other-state.txt"), "mine\n");
    assert_false(temporary_left(ODIR "/api"));
    /* and published when all went well */
    wm_outfile_hold();
    a = wm_outfile_begin(ODIR "/api/kept.layout", true, err, sizeof err);
    assert_non_null(a);
    fputs("replaced\n", wm_outfile_stream(a));
    assert_true(wm_outfile_commit(a, err, sizeof err));
    assert_true(wm_outfile_release(true, err, sizeof err));
    assert_string_equal(slurp(ODIR "/api/kept.layout"), "replaced\n");
    assert_false(temporary_left(ODIR "/api"));
}

int main(void)
{
    unsetenv("MAKEFLAGS");
    if (system("mkdir -p " ODIR) != 0) return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_output_onto_every_kind_of_name),
        cmocka_unit_test(test_a_failed_publication_removes_only_what_it_made),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
