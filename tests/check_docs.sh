#!/bin/bash
# check_docs.sh [DOCS]: the docs say what the tools do today.
#
# Run from the repository root with build/wavemesh built ($WAVEMESH names
# another). DOCS is the docs folder (default docs; tests/check_docs_fires.sh
# points it at a copy with planted faults). Fails, naming file:line, on:
#
# - a commit hash anywhere under DOCS: a word of 7 to 40 hex digits with a
#   letter and a digit, not after 0x. A word of exactly 8 digits is how the
#   tools print a 32-bit value (an instruction word in a disassembly), so it
#   counts only when git knows it as a commit;
# - "load average" outside a `Machine:` line (the line the benchmark
#   scripts of docs/bench print);
# - a checked block whose lines the tool no longer prints: a fenced block
#   right after a `<!-- check -->` line, whose first line is `$ COMMAND`
#   (`wavemesh` is $WAVEMESH) and whose other lines must each be a line of
#   the command's output, in order (other output lines may come between;
#   a line `...` is only a reader's ellipsis). Each command runs once. The
#   mark `<!-- check exit=N -->` expects exit status N instead of 0;
# - a shown command that does not run: every line of a fenced block right
#   after a `<!-- run -->` line (`<!-- run exit=N -->`: status N) is a
#   command, a ` # comment` after it a reader's note, and must exit 0. A
#   command is exempted by a line `<!-- not run: `PREFIX` REASON -->` right
#   before the mark (a long job, a GUI), which names the commands it
#   exempts by their start and says why; one that exempts no command of
#   its block, or gives no reason, is reported. In README.md and
#   DOCS/kernels.md every fenced block of commands (its first line starts
#   with `$ `, `build/wavemesh`, `wavemesh ` or `make `) must carry a check
#   or a run mark. Commands of checked and run blocks run in a scratch
#   folder that mirrors the checkout's root (its folders linked, build/ a
#   folder of its own holding build/wavemesh and build/firmware), so a file
#   a command writes lands there, never in the checkout; `make TARGET`
#   runs the checkout's Makefile with WAVES_DIR in that folder;
# - a C snippet that does not compile: every ```c block of a page, unless
#   the line before it is `<!-- partial -->` (a fragment, marked as one),
#   is compiled alone as firmware is (tests/check_firmware.sh's flags:
#   freestanding, -Werror, against sw/), after the includes a kernel file
#   opens with (kernels.h, mp.h, wavelet.h, cost_model.h, stdint.h,
#   stdbool.h, stddef.h);
# - a table row "| `WM_NAME` | N |" that sw/cost_model.h does not define so;
# - a relative link, in DOCS or README.md, to a file that does not exist;
# - a verification.md of more than 300 lines, or one that does not name
#   every step of the Makefile's TEST_STEPS as `make STEP`.
set -u
DOCS=${1:-docs}
WAVEMESH=${WAVEMESH:-build/wavemesh}
if [ ! -d "$DOCS" ] || [ ! -x "$WAVEMESH" ] || [ ! -f sw/cost_model.h ]; then
    echo "check_docs: run from the repository root with $WAVEMESH built (docs folder: $DOCS)" >&2
    exit 2
fi
cc=${CC:-cc}
CFLAGS_FW="-std=c11 -ffreestanding -nostdlib -nostdinc -isystem $($cc -print-file-name=include) -Isw -O2 -Wall -Wextra -Wshadow -Werror -Wno-unused-function -Wno-unused-variable -c"
SNIPPETS=$(mktemp -d)
trap 'rm -rf "$SNIPPETS"' EXIT
export CC=$cc CFLAGS_FW SNIPPETS
git_ok=0
git rev-parse --git-dir >/dev/null 2>&1 && git_ok=1
# The scratch root the shown commands run in.
ROOT=$(pwd)
RUNDIR=$SNIPPETS/root
mkdir -p "$RUNDIR/build"
for entry in "$ROOT"/* "$ROOT"/.[!.]*; do
    case ${entry##*/} in build | .git | '.[!.]*') ;; *) ln -s "$entry" "$RUNDIR/${entry##*/}" ;; esac
done
WAVEMESH_ABS=$(cd "$(dirname "$WAVEMESH")" && pwd)/$(basename "$WAVEMESH")
ln -s "$WAVEMESH_ABS" "$RUNDIR/build/wavemesh"
[ -d "$ROOT/build/firmware" ] && ln -s "$ROOT/build/firmware" "$RUNDIR/build/firmware"
export DOCS WAVEMESH WAVEMESH_ABS git_ok ROOT RUNDIR

perl -e '
use strict; use warnings; use Cwd qw(abs_path);
my ($docs, $w, $git) = @ENV{qw(DOCS WAVEMESH git_ok)};
my $fail = 0;
sub report { my ($where, $what) = @_; print STDERR "$where: $what\n"; $fail = 1; }

my @files = sort split /\n/, `find "$docs" -type f \\( -name "*.md" -o -name "*.sh" \\)`;
my @md = grep { /\.md$/ } @files;

# The constants of the cost model, by name.
my %cost;
open my $h, "<", "sw/cost_model.h" or die "sw/cost_model.h: $!";
while (<$h>) { $cost{$1} = $2 if /^\s*(WM_\w+)\s*=\s*(\d+)/; }
close $h;

my %is_commit;
sub commit { my $word = shift;
    return 0 unless $git;
    $is_commit{$word} //= system("git cat-file -e \Q$word\E^{commit} 2>/dev/null") == 0;
    return $is_commit{$word};
}

my %output;
my ($root, $rundir, $wabs) = @ENV{qw(ROOT RUNDIR WAVEMESH_ABS)};
sub run { my $cmd = shift;
    return $output{$cmd} if exists $output{$cmd};
    (my $sh = $cmd) =~ s/^wavemesh\b/$wabs/;
    $sh =~ s{(^|&&\s*|;\s*)make\b}{$1env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C \Q$root\E --no-print-directory WAVES_DIR=\Q$rundir\E/build/waves}g;
    my $out = `cd \Q$rundir\E && { $sh\n} 2>&1`;
    my $rc = $?;
    $output{$cmd} = [ $rc, [ map { s/\s+$//r } split /\n/, $out ] ];
    return $output{$cmd};
}

# The pages whose every block of commands carries a check or a run mark.
my %all_run = map { $_ => 1 } ("README.md", "$docs/kernels.md");
# README.md goes with the docs/ of the checkout: with a copy under test, its
# blocks are checked for their marks but not run again.
my $run_readme = abs_path($docs) eq abs_path("docs");
sub status { my ($rc) = @_; return ($rc & 127) ? "signal " . ($rc & 127) : "status " . ($rc >> 8); }
sub exits_as { my ($rc, $want) = @_; return !($rc & 127) && ($rc >> 8) == $want; }

for my $f (@files, "README.md") {
    open my $fh, "<", $f or die "$f: $!";
    my @lines = <$fh>;
    close $fh;
    chomp @lines;
    for my $i (0 .. $#lines) {
        my $l = $lines[$i];
        my $at = "$f:" . ($i + 1);
        next if $l =~ /Machine:/;
        report($at, "load average outside a Machine: line") if $l =~ /load average/i;
        while ($l =~ /(?<![0-9A-Za-z_])(?<!0x)([0-9a-f]{7,40})(?![0-9A-Za-z_])/g) {
            my $word = $1;
            next unless $word =~ /[a-f]/ && $word =~ /[0-9]/;
            next if length($word) == 8 && !commit($word);
            report($at, "a commit hash ($word)");
        }
    }
    next unless $f =~ /\.md$/;
    for (my $i = 0; $i <= $#lines; $i++) {
        my $l = $lines[$i];
        if ($l =~ /^\|\s*`(WM_\w+)`\s*\|\s*(\d+)\s*\|/) {
            my ($name, $n) = ($1, $2);
            if (!exists $cost{$name}) {
                report("$f:" . ($i + 1), "$name is not in sw/cost_model.h");
            } elsif ($cost{$name} != $n) {
                report("$f:" . ($i + 1), "$name is $n here, $cost{$name} in sw/cost_model.h");
            }
        }
        if ($l =~ /^```c\s*$/ && !($i > 0 && $lines[$i - 1] =~ /^<!--\s*partial\s*-->\s*$/)) {
            my $j = $i + 1;
            my @code;
            push @code, $lines[$j++] while $j <= $#lines && $lines[$j] !~ /^```/;
            my $src = "$ENV{SNIPPETS}/snippet.c";
            open my $o, ">", $src or die "$src: $!";
            print $o "#include <stdbool.h>\n#include <stddef.h>\n#include <stdint.h>\n#include \"kernels.h\"\n"
                   . "#include \"mp.h\"\n#include \"wavelet.h\"\n#include \"cost_model.h\"\n#line " . ($i + 2) . " \"$f\"\n"
                   . join("\n", @code) . "\n";
            close $o;
            my $err = `$ENV{CC} $ENV{CFLAGS_FW} -o $ENV{SNIPPETS}/snippet.o $src 2>&1`;
            report("$f:" . ($i + 1), "the C snippet does not compile:\n$err") if $?;
            $i = $j;
            next;
        }
        if ($l =~ /^```/) {
            # A block of commands that no mark covers (a marked block is
            # skipped whole below, so this is an unmarked one).
            my $first = $i + 1 <= $#lines ? $lines[$i + 1] : "";
            report("$f:" . ($i + 2), "a block of commands with no `<!-- check -->` or `<!-- run -->` mark before it")
                if $all_run{$f} && $first =~ m{^(\$ |build/wavemesh\b|wavemesh |make )};
            $i++ while $i + 1 <= $#lines && $lines[$i + 1] !~ /^```/;
            $i++;
            next;
        }
        my $runs = $f ne "README.md" || $run_readme;
        if ($l =~ /^<!--\s*run(?:\s+exit=(\d+))?\s*-->\s*$/) {
            my $want_rc = $1 // 0;
            my $open = $i + 1;
            if ($open > $#lines || $lines[$open] !~ /^```/) {
                report("$f:" . ($i + 1), "a run mark not followed by a fenced block");
                next;
            }
            # The exemptions: `<!-- not run: `PREFIX` REASON -->` lines right before the mark.
            my @not;
            for (my $m = $i - 1; $m >= 0 && $lines[$m] =~ /^<!--\s*not run:/; $m--) {
                if ($lines[$m] =~ /^<!--\s*not run:\s*`([^`]+)`\s*(.*?)\s*-->\s*$/ && $2 ne "") {
                    push @not, { prefix => $1, at => $m + 1, used => 0 };
                } else {
                    report("$f:" . ($m + 1), "a not-run line that does not name a command as `PREFIX` and give its reason");
                }
            }
            my $j;
            for ($j = $open + 1; $j <= $#lines && $lines[$j] !~ /^```/; $j++) {
                (my $cmd = $lines[$j]) =~ s/\s+#\s.*$//;
                $cmd =~ s/^\s+|\s+$//g;
                next if $cmd eq "";
                my ($skip) = grep { substr($cmd, 0, length $_->{prefix}) eq $_->{prefix} } @not;
                if ($skip) { $skip->{used} = 1; next; }
                next unless $runs;
                my ($rc, $out) = @{ run($cmd) };
                next if exits_as($rc, $want_rc);
                my $tail = join "\n", grep { defined } @$out[ ($#$out > 4 ? $#$out - 4 : 0) .. $#$out ];
                report("$f:" . ($j + 1), "`$cmd` exits with " . status($rc) . ", not $want_rc:\n$tail");
            }
            report("$f:$_->{at}", "not run: `$_->{prefix}` exempts no command of the block below") for grep { !$_->{used} } @not;
            $i = $j;
            next;
        }
        next unless $l =~ /^<!--\s*check(?:\s+exit=(\d+))?\s*-->\s*$/;
        my $want_rc = $1 // 0;
        my $open = $i + 1;
        if ($open > $#lines || $lines[$open] !~ /^```/ || $open + 1 > $#lines
            || $lines[$open + 1] !~ /^\$ (.+?)\s*$/) {
            report("$f:" . ($i + 1), "a check mark not followed by a fenced block opening with \$ COMMAND");
            next;
        }
        my $cmd = $1;
        if (!$runs) { $i = $open + 1; $i++ while $i + 1 <= $#lines && $lines[$i + 1] !~ /^```/; $i++; next; }
        my ($rc, $out) = @{ run($cmd) };
        report("$f:" . ($open + 2), "`$cmd` exits with " . status($rc) . ", not $want_rc") unless exits_as($rc, $want_rc);
        my $k = 0;
        my $j;
        for ($j = $open + 2; $j <= $#lines && $lines[$j] !~ /^```/; $j++) {
            (my $want = $lines[$j]) =~ s/\s+$//;
            next if $want eq "" || $want eq "...";
            my $found = 0;
            while ($k < @$out) { if ($out->[$k++] eq $want) { $found = 1; last; } }
            if (!$found) {
                report("$f:" . ($j + 1), "`$want` is not what `$cmd` prints (or not in that order)");
                $k = 0;
            }
        }
        $i = $j;
    }
}

# Relative links. A page of the copy under test links as docs/ would.
sub norm { my @p; for (split m{/}, shift) { next if $_ eq "" || $_ eq ".";
    if ($_ eq "..") { pop @p } else { push @p, $_ } } join "/", @p; }
for my $f (@md, "README.md") {
    open my $fh, "<", $f or die "$f: $!";
    my $n = 0;
    my $fence = 0;
    (my $dir = $f) =~ s{/?[^/]*$}{};
    my $rel = $f eq "README.md" ? "" : "docs" . substr($dir, length $docs);
    while (my $l = <$fh>) {
        $n++;
        $fence = !$fence if $l =~ /^```/;
        next if $fence;
        $l =~ s/`[^`]*`//g;
        while ($l =~ /\]\(([^)\s]+)\)/g) {
            my $t = $1;
            next if $t =~ m{^(https?|mailto):} || $t =~ /^#/;
            $t =~ s/#.*//;
            my $p = norm(($rel eq "" ? "" : "$rel/") . $t);
            my $real = $p =~ m{^docs(/|$)} ? $docs . substr($p, 4) : $p;
            report("$f:$n", "a link to $t, which does not exist") unless -e $real;
        }
    }
    close $fh;
}

# The reference of the checks stays a reference: at most 300 lines.
if (-f "$docs/verification.md") {
    open my $vh, "<", "$docs/verification.md" or die "$docs/verification.md: $!";
    my $lines = 0; $lines++ while <$vh>; close $vh;
    report("$docs/verification.md:$lines", "$lines lines, more than the 300 a reference of the checks may have")
        if $lines > 300;
}

# The table of the checks names every step of make test (TEST_STEPS of
# the Makefile), each as `make STEP`, so the list cannot drift from the suite.
if (-f "$docs/verification.md" && -f "Makefile") {
    open my $mh, "<", "Makefile" or die "Makefile: $!";
    my $mk = do { local $/; <$mh> }; close $mh;
    my ($list) = $mk =~ /^TEST_STEPS\s*:=\s*((?:.*\\\n)*.*)$/m;
    $list //= "";
    $list =~ s/\\\n/ /g;
    open my $vh, "<", "$docs/verification.md" or die "$docs/verification.md: $!";
    my $ver = do { local $/; <$vh> }; close $vh;
    report("Makefile", "no TEST_STEPS list") unless $list =~ /\S/;
    for my $step (split " ", $list) {
        report("$docs/verification.md", "the make test step $step is not in the table (as `make $step`)")
            unless index($ver, "`make $step`") >= 0;
    }
}

print STDERR "check_docs: every figure checked is what the tools print, every command shown runs, every C snippet compiles; no commit hash, no load average, no broken link\n"
    unless $fail;
exit $fail;
'
