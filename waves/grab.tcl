# GTKWave 3.3 Tcl script: zoom, grab the main window to a PNG, quit.
#
#   gtkwave -S waves/grab.tcl trace.vcd trace.vcd.gtkw     (normally through waves/render.sh)
#
# Environment (all optional):
#   WAVES_PNG   where the PNG goes                                   default: waves.png
#   WAVES_FROM  start of the shown window                            default: 0
#   WAVES_TO    end of the shown window; "full" = the whole dump     default: 200
#               A bare number is in ns (12.5 = 12.5 ns); a number with a unit is taken
#               as is (2us, 1500ps). The window is clamped to the end of the dump, and
#               GTKWave snaps it to whole pixels, so the end can be off by a few units.
#
# The default window is the first 200 ns, not the whole dump: zoomed out to a few thousand
# cycles every packet number collapses to "+" and the picture shows nothing useful.
#
# Also checks that every signal named in the save file is in the dump (GTKWave silently
# drops the ones it cannot find) and prints "waves: missing signal: NAME" on stderr for each.
# With no save file it shows every signal of the dump instead.
# Errors are reported on stderr as "waves: error: ..."; GTKWave quits in every case.

proc waves_env {name default} {
    if {[info exists ::env($name)] && [string trim $::env($name)] ne ""} {
        return [string trim $::env($name)]
    }
    return $default
}

# "12.5" -> "12500ps" (GTKWave truncates fractional times), "2us" -> "2us".
proc waves_time {what value} {
    if {[string is double -strict $value]} {
        if {$value < 0} { error "$what=$value: negative time" }
        return "[expr {wide(round($value * 1000.0))}]ps"
    }
    if {![regexp {^[0-9]+(\.[0-9]+)?\s*(s|ms|us|ns|ps|fs)$} $value]} {
        error "$what=$value: not a time (a number of ns, or a number with s/ms/us/ns/ps/fs)"
    }
    return [string map {" " ""} $value]
}

# A time from waves_time in the units GTKWave reports times in (getTimeDimension).
proc waves_in_dump_units {time} {
    set scale {s 1e15 ms 1e12 us 1e9 ns 1e6 ps 1e3 fs 1}
    regexp {^([0-9.]+)([a-z]+)$} $time -> value unit
    set dim [string trim [gtkwave::getTimeDimension]]
    set dim [expr {$dim eq "" ? "s" : "${dim}s"}]
    return [expr {$value * [dict get $scale $unit] / [dict get $scale $dim]}]
}

# Signal names listed in the save file: every line that is not a flag (@), a comment (-),
# a directive ([...]) or a GTKWave note (*).
proc waves_saved_signals {} {
    set path [gtkwave::getSaveFileName]
    if {$path eq "" || ![file readable $path]} { return {} }
    set f [open $path r]
    set names {}
    foreach line [split [read $f] "\n"] {
        set line [string trim $line]
        if {$line eq "" || [string index $line 0] in {@ - [ * #}} continue
        lappend names $line
    }
    close $f
    return $names
}

proc waves_grab {} {
    set png [waves_env WAVES_PNG waves.png]

    set shown [gtkwave::getDisplayedSignals]
    set saved [waves_saved_signals]
    if {[llength $saved] == 0 && [llength $shown] == 0} {
        # No save file: show everything the dump has.
        set all {}
        for {set i 0} {$i < [gtkwave::getNumFacs]} {incr i} { lappend all [gtkwave::getFacName $i] }
        gtkwave::addSignalsFromList $all
    }
    foreach name $saved {
        if {[lsearch -exact $shown $name] < 0} { puts stderr "waves: missing signal: $name" }
    }

    set to [waves_env WAVES_TO 200]
    if {[string equal -nocase $to full]} {
        gtkwave::/Time/Zoom/Zoom_Full
    } else {
        set from_text [waves_env WAVES_FROM 0]
        set to_text $to
        set from [waves_time WAVES_FROM $from_text]
        set to [waves_time WAVES_TO $to_text]
        set end "[gtkwave::getMaxTime] [gtkwave::getTimeDimension]s"
        if {[waves_in_dump_units $from] >= [gtkwave::getMaxTime]} {
            error "WAVES_FROM=$from_text is not before the end of the dump ($end)"
        }
        if {[waves_in_dump_units $to] <= [waves_in_dump_units $from]} {
            error "WAVES_TO=$to_text is not after WAVES_FROM=$from_text"
        }
        gtkwave::setZoomRangeTimes $from $to
    }
    gtkwave::setTraceScrollbarRowValue 0

    file delete -force $png
    gtkwave::/File/Grab_To_File $png
    if {![file exists $png] || [file size $png] == 0} { error "GTKWave wrote no image to $png" }
    set rows [gtkwave::getTotalNumTraces]
    set fit [expr {[gtkwave::getWaveHeight] / max(1, [gtkwave::getFontHeight]) - 1}]
    set unit [gtkwave::getTimeDimension]s
    puts "waves: wrote $png (window [gtkwave::getWindowStartTime]..[gtkwave::getWindowEndTime]\
          $unit of 0..[gtkwave::getMaxTime] $unit; rows: [expr {min($rows, $fit)}] of $rows shown)"
}

if {[catch waves_grab message]} { puts stderr "waves: error: $message" }
gtkwave::/File/Quit
