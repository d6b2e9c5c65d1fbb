#!/bin/sh
# screenshot.sh SAVE.gtkw DUMP FROM TO OUT.png [WxH]: a PNG of GTKWave showing
# the save file's signals from cycle FROM to TO, made headless under xvfb-run
# on a screen of WxH pixels (default 1600x1000).
# GTKWave runs the zoom script (-S), the window is grabbed with ImageMagick
# once it is up, and GTKWave is stopped.
set -e
gtkw=$1 dump=$2 from=$3 to=$4 out=$5 screen=${6:-1600x1000}
tcl=$(mktemp /tmp/wm_zoom_XXXXXX.tcl)
trap 'rm -f "$tcl"' EXIT
echo "gtkwave::setZoomRangeTimes $from $to" > "$tcl"
xvfb-run -a -s "-screen 0 ${screen}x24" sh -c '
    gtkwave -S "$1" -a "$2" "$3" >/dev/null 2>&1 &
    pid=$!
    i=0
    until xwininfo -root -tree 2>/dev/null | grep -q "\"GTKWave - "; do
        i=$((i + 1)); [ $i -gt 100 ] && { kill $pid; exit 1; }
        sleep 0.1
    done
    sleep 1.5
    import -window root "$4"
    kill $pid
' sh "$tcl" "$gtkw" "$dump" "$out"
