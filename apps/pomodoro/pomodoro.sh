#!/bin/sh
# pomodoro: a TermCanvas micro-app (protocol 1) in POSIX shell — 25-minute work sessions and
# 5-minute breaks. Keys: space or s start/pause, r reset, n next phase. Runs under dash.
#
# Timing without `read -t`: the main loop reads one FIFO (in a private temp folder) that two
# writers feed with whole lines: `cat` copying the host's messages, and — only while the timer
# runs — a ticker writing "tick" once a second. Paused, there is no ticker at all, so the app
# sleeps in `read` and writes nothing. The time left is taken from the clock (`date +%s`), so
# late or lost ticks never make the timer drift.

WORK_SECONDS=1500
BREAK_SECONDS=300
WORK_MINUTES=$((WORK_SECONDS / 60))

phase=work              # work | break
remaining=$WORK_SECONDS # seconds left in this phase (while running: as of the last tick)
sessions=0              # work sessions finished
running=0
end=0                   # while running: when the phase ends, in seconds since the epoch
visible=1
width=0
height=0
revision=0
last_root=
ticker_pid=
reader_pid=
dir=

# --- Output ----------------------------------------------------------------------------------

send() {
    printf '%s\n' "$1"
}

save_state() {
    send '{"jsonrpc":"2.0","method":"state.save","params":{"state":{"phase":"'"$phase"'","remaining":'"$remaining"',"sessions":'"$sessions"'}}}'
}

publish_finished() {
    send '{"jsonrpc":"2.0","method":"bus.publish","params":{"name":"pomodoro.session.finished","summary":"Pomodoro '"$sessions"' finished","payload":{"sessions":'"$sessions"',"minutes":'"$WORK_MINUTES"'}}}'
}

# --- Helpers ---------------------------------------------------------------------------------

phase_length() {
    if [ "$phase" = work ]; then full=$WORK_SECONDS; else full=$BREAK_SECONDS; fi
}

now() {
    now=$(date +%s)
}

# Sets $padded to $1 with a leading zero below 10.
two_digits() {
    if [ "$1" -lt 10 ]; then padded=0$1; else padded=$1; fi
}

# Sets $d1 $d2 $d3 to the three rows of a big digit (or of the colon).
big_glyph() {
    case $1 in
        0) d1='┏━┓' d2='┃ ┃' d3='┗━┛' ;;
        1) d1='╺┓ ' d2=' ┃ ' d3='╺┻╸' ;;
        2) d1='╺━┓' d2='┏━┛' d3='┗━╸' ;;
        3) d1='╺━┓' d2=' ━┫' d3='╺━┛' ;;
        4) d1='╻ ╻' d2='┗━┫' d3='  ╹' ;;
        5) d1='┏━╸' d2='┗━┓' d3='╺━┛' ;;
        6) d1='┏━╸' d2='┣━┓' d3='┗━┛' ;;
        7) d1='╺━┓' d2='  ┃' d3='  ╹' ;;
        8) d1='┏━┓' d2='┣━┫' d3='┗━┛' ;;
        9) d1='┏━┓' d2='┗━┫' d3='╺━┛' ;;
        *) d1=' ' d2=':' d3=' ' ;;
    esac
}

# Sets $big to a `lines` node showing $clock (MM:SS) in big digits, centred in the pane.
big_clock() {
    pad=
    if [ "$width" -gt 17 ]; then
        n=$(((width - 17) / 2))
        while [ "$n" -gt 0 ]; do pad="$pad " n=$((n - 1)); done
    fi
    r1=$pad r2=$pad r3=$pad rest=$clock
    while [ -n "$rest" ]; do
        char=${rest%"${rest#?}"}
        rest=${rest#?}
        big_glyph "$char"
        r1="$r1$d1 " r2="$r2$d2 " r3="$r3$d3 "
    done
    big='{"type":"lines","lines":[[{"text":"'"$r1"'","role":"'"$role"'"}],[{"text":"'"$r2"'","role":"'"$role"'"}],[{"text":"'"$r3"'","role":"'"$role"'"}]],"size":3}'
}

# --- The view --------------------------------------------------------------------------------

# Sets $root to the view tree of the current state.
render() {
    phase_length
    two_digits $((remaining / 60)); minutes=$padded
    two_digits $((remaining % 60)); clock="$minutes:$padded"
    permille=$(((full - remaining) * 1000 / full))
    case $permille in
        ?) fraction=00$permille ;;
        ??) fraction=0$permille ;;
        *) fraction=$permille ;;
    esac
    value=$((permille / 1000)).${fraction#"${fraction%???}"}
    if [ "$phase" = work ]; then name=Work role=accent; else name=Break role=success; fi
    if [ "$running" = 1 ]; then status=running
    elif [ "$remaining" = "$full" ]; then status=ready
    else status=paused; fi

    root='{"type":"stack","direction":"rows","children":['
    root="$root"'{"type":"text","text":"'"$name · $sessions done · $status"'","role":"heading","wrap":false,"size":1},'
    if [ "$height" = 0 ] || [ "$height" -ge 7 ]; then
        if [ "$width" = 0 ] || [ "$width" -ge 20 ]; then
            big_clock
            root="$root$big,"
        fi
    fi
    root="$root"'{"type":"gauge","label":"'"$name"'","value":'"$value"',"text":"'"$clock left"'","role":"'"$role"'","size":1},'
    root="$root"'{"type":"text","text":"","grow":1},'
    root="$root"'{"type":"text","text":"space start/pause · r reset · n next","role":"muted","wrap":false,"size":1}]}'
}

# Renders; a new revision only when the tree changed.
update_view() {
    render
    if [ "$root" != "$last_root" ]; then
        revision=$((revision + 1))
        last_root=$root
    fi
}

send_view() {
    update_view
    send '{"jsonrpc":"2.0","method":"view","params":{"revision":'"$revision"',"root":'"$root"'}}'
}

# --- The ticker ------------------------------------------------------------------------------

# A subshell writing "tick" into the FIFO every second; on TERM it kills its sleep and ends.
start_ticker() {
    [ -n "$ticker_pid" ] && return
    (
        trap 'kill $nap 2>/dev/null; exit 0' TERM
        nap=
        while :; do
            sleep 1 &
            nap=$!
            wait $nap
            echo tick
        done
    ) >"$dir/in" &
    ticker_pid=$!
}

stop_ticker() {
    [ -z "$ticker_pid" ] && return
    kill "$ticker_pid" 2>/dev/null
    wait "$ticker_pid" 2>/dev/null
    ticker_pid=
}

# --- The timer -------------------------------------------------------------------------------

start() {
    now
    end=$((now + remaining))
    running=1
    start_ticker
}

pause() {
    stop_ticker
    if [ "$running" = 1 ]; then
        now
        remaining=$((end - now))
        [ "$remaining" -lt 0 ] && remaining=0
    fi
    running=0
}

toggle() {
    if [ "$running" = 1 ]; then
        pause
        save_state
    else
        start
    fi
}

reset() {
    pause
    phase_length
    remaining=$full
    save_state
}

# Moves to the other phase, paused; finishing a work session counts and publishes it.
next_phase() {
    pause
    if [ "$1" = finished ] && [ "$phase" = work ]; then
        sessions=$((sessions + 1))
        publish_finished
    fi
    if [ "$phase" = work ]; then phase=break; else phase=work; fi
    phase_length
    remaining=$full
    save_state
}

tick() {
    [ "$running" = 1 ] || return    # a tick written just before the ticker was stopped
    now
    remaining=$((end - now))
    if [ "$remaining" -le 0 ]; then
        remaining=0
        next_phase finished
    fi
    [ "$visible" = 1 ] && send_view
}

# --- Messages from the host ------------------------------------------------------------------
# The host writes compact JSON with sorted keys, so each message starts with a fixed prefix.

# Restores {phase, remaining, sessions} from initialize's "state" (the last "state": in the line:
# the keys after it, theme and visible, hold no objects).
restore() {
    saved=${1##*'"state":'}
    case $saved in '{'*) ;; *) return ;; esac
    value=${saved#*'"phase":"'}; value=${value%%'"'*}
    case $value in work|break) phase=$value ;; esac
    phase_length
    remaining=$full
    value=${saved#*'"remaining":'}; value=${value%%[,.\}]*}
    case $value in ''|*[!0-9]*) ;; *) [ "$value" -le "$full" ] && remaining=$value ;; esac
    value=${saved#*'"sessions":'}; value=${value%%[,.\}]*}
    case $value in ''|*[!0-9]*) ;; *) sessions=$value ;; esac
}

# Sets $width and $height from the {"height":H,"width":W} that follows $2 in $1.
read_size() {
    size=${1#*"$2"}
    [ "$size" = "$1" ] && return
    size=${size%%'}'*}
    value=${size#*'"height":'}; height=${value%%[,.]*}
    value=${size#*'"width":'}; width=${value%%[,.]*}
    case $height$width in *[!0-9]*|'') width=0 height=0 ;; esac
}

initialize() {
    id=${1#'{"id":'}; id=${id%%,*}
    restore "$1"
    read_size "$1" '"size":'
    case $1 in *'"visible":false'*) visible=0 ;; esac
    update_view
    send '{"jsonrpc":"2.0","id":'"$id"',"result":{"protocol":"1.0","capabilities":{"keys":true},"view":{"revision":'"$revision"',"root":'"$root"'}}}'
}

key() {
    name=${1#*'"params":{"key":"'}; name=${name%%'"'*}
    case $name in
        space|s) toggle ;;
        r) reset ;;
        n) next_phase skipped ;;
    esac
    send_view   # every key is answered with a view, changed or not
}

shutdown() {
    id=${1#'{"id":'}; id=${id%%,*}
    if [ "$running" = 1 ]; then
        pause
        save_state
    fi
    send '{"jsonrpc":"2.0","id":'"$id"',"result":null}'
}

# Handles one line; returns 1 when the app should end.
handle() {
    case $1 in
        tick) tick ;;
        eof) return 1 ;;
        '{"id":'*',"jsonrpc":"2.0","method":"initialize",'*) initialize "$1" ;;
        '{"id":'*',"jsonrpc":"2.0","method":"shutdown"'*) shutdown "$1" ;;
        '{"id":'*',"jsonrpc":"2.0","method":'*)
            id=${1#'{"id":'}; id=${id%%,*}
            send '{"jsonrpc":"2.0","id":'"$id"',"error":{"code":-32601,"message":"method not found"}}' ;;
        '{"jsonrpc":"2.0","method":"key",'*) key "$1" ;;
        '{"jsonrpc":"2.0","method":"resize",'*) read_size "$1" '"params":'; [ "$visible" = 1 ] && send_view ;;
        '{"jsonrpc":"2.0","method":"visible","params":{"visible":false}}') visible=0 ;;
        '{"jsonrpc":"2.0","method":"visible","params":{"visible":true}}') visible=1; send_view ;;
        '{"jsonrpc":"2.0","method":"exit"'*) return 1 ;;
    esac
    return 0    # focus, bus events and anything else need nothing
}

# --- Start and end ---------------------------------------------------------------------------

cleanup() {
    trap - EXIT
    stop_ticker
    [ -n "$reader_pid" ] && kill "$reader_pid" 2>/dev/null && wait "$reader_pid" 2>/dev/null
    [ -n "$dir" ] && rm -rf "$dir"
}

# Copies the host's lines into the FIFO, then writes "eof"; on TERM it kills its cat and ends.
start_reader() {
    (
        trap 'kill $copier 2>/dev/null; exit 0' TERM
        cat <&3 3<&- &
        copier=$!
        wait $copier
        echo eof
    ) >"$dir/in" &
    reader_pid=$!
}

main() {
    trap cleanup EXIT
    trap 'exit 1' HUP INT TERM PIPE
    dir=$(mktemp -d "${TMPDIR:-/tmp}/pomodoro.XXXXXX") || exit 1
    mkfifo "$dir/in" || exit 1
    exec 3<&0               # the host's messages, for the reader only
    start_reader
    exec <"$dir/in" 3<&-
    while IFS= read -r line; do
        handle "$line" || break
    done
    exit 0
}

main
