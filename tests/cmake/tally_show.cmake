# `keff tally show` (examples/OUTPUTS.md, "Statepoint"): a statepoint's tallies printed bin by bin, as a table and
# as CSV with one row per bin and score, the values those of the JSON summary; an unknown tally name and
# a file that is not a statepoint refused with status 2 and what is allowed; output that cannot be written
# (/dev/full) an error.
#   cmake -DKEFF=... -DINPUT=<inputs/tallies_lattice.toml> -DOUT=dir -P tally_show.cmake
# The first 6 significant digits of a decimal number (as an integer) and the exponent of the first:
# CMake has no floating point, and the CSV prints 6 significant digits.
function(leading_digits text out_digits out_exp)
  if(NOT text MATCHES "^([0-9]+)\\.?([0-9]*)([eE]([+-]?[0-9]+))?$")
    message(FATAL_ERROR "not a non-negative decimal number: '${text}'")
  endif()
  set(whole "${CMAKE_MATCH_1}")
  set(all "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
  set(e "${CMAKE_MATCH_4}")
  if(e STREQUAL "")
    set(e 0)
  endif()
  string(REGEX MATCH "^0*" zeros "${all}")
  string(LENGTH "${zeros}" nz)
  string(LENGTH "${whole}" nw)
  string(SUBSTRING "${all}" ${nz} -1 sig)
  string(APPEND sig "000000")
  string(SUBSTRING "${sig}" 0 6 sig)
  string(REGEX REPLACE "^0+([0-9])" "\\1" sig "${sig}")
  math(EXPR exp "${nw} - 1 - ${nz} + ${e}")
  set(${out_digits} ${sig} PARENT_SCOPE)
  set(${out_exp} ${exp} PARENT_SCOPE)
endfunction()

file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")
execute_process(COMMAND ${KEFF} run ${INPUT} --particles 500 --batches 3 --inactive 1 --quiet
                        --statepoint ${OUT}/sp.h5 --json ${OUT}/sp.json
                RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 300)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the run failed (${rc}):\n${err}")
endif()

# pin_power: 81 mesh bins x 2 energy bins x 3 scores, a header and one row per bin and score.
execute_process(COMMAND ${KEFF} tally show ${OUT}/sp.h5 pin_power --csv
                RESULT_VARIABLE rc OUTPUT_VARIABLE csv ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "tally show --csv failed (${rc}):\n${err}")
endif()
# Lines counted and taken by regular expression: the energy bands' brackets would join CMake list items.
string(REGEX MATCHALL "\n" newlines "${csv}")
list(LENGTH newlines n)
string(REGEX MATCH "^[^\n]*" header "${csv}")
if(NOT n EQUAL 487 OR NOT header STREQUAL "tally,mesh,energy,score,mean,std_dev")
  message(FATAL_ERROR "tally show --csv: ${n} lines (expected 487), header '${header}'")
endif()
# The last row is mesh bin (8 8 0), the upper energy band, nu-fission: the JSON's last value, to the 6
# significant digits printed.
string(REGEX MATCH "[^\n]*\n$" last "${csv}")
if(NOT last MATCHES "^pin_power,\"\\(8 8 0\\)\",\"\\[0.625, 2e\\+07\\) eV\",nu-fission,([^,]+),[^,]*\n$")
  message(FATAL_ERROR "tally show --csv: last row '${last}'")
endif()
set(shown "${CMAKE_MATCH_1}")
file(READ ${OUT}/sp.json json)
string(JSON tally GET "${json}" tallies 1)
string(JSON name GET "${tally}" name)
string(JSON values LENGTH "${tally}" mean)
math(EXPR at "${values} - 1")
string(JSON expected GET "${tally}" mean ${at})
if(NOT name STREQUAL "pin_power" OR NOT values EQUAL 486)
  message(FATAL_ERROR "the JSON's second tally is '${name}' with ${values} values (expected pin_power, 486)")
endif()
leading_digits("${shown}" shown_digits shown_exp)
leading_digits("${expected}" json_digits json_exp)
math(EXPR diff "${shown_digits} - ${json_digits}")
if(NOT shown_exp EQUAL json_exp OR diff GREATER 1 OR diff LESS -1)
  message(FATAL_ERROR "tally show printed ${shown} where the JSON summary holds ${expected}")
endif()

# The table names the tally, its estimator and its bins.
execute_process(COMMAND ${KEFF} tally show ${OUT}/sp.h5 whole RESULT_VARIABLE rc OUTPUT_VARIABLE table TIMEOUT 60)
if(NOT rc EQUAL 0 OR NOT table MATCHES "^tally 'whole' \\(tracklength estimator, 1 bins; per source particle\\)\n"
   OR NOT table MATCHES "\n  flux +[0-9.]+e\\+[0-9]+ \\+/- [0-9.e+-]+ +\\([0-9.e+-]+ %\\)\n")
  message(FATAL_ERROR "tally show whole (${rc}):\n${table}")
endif()

# Refusals: status 2 and what is allowed.
execute_process(COMMAND ${KEFF} tally show ${OUT}/sp.h5 nosuch RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 2 OR NOT err MATCHES "has no tally 'nosuch' \\(allowed: mesh, pin_power, fuel_pins, by_material, events, whole\\)")
  message(FATAL_ERROR "an unknown tally name (${rc}):\n${err}")
endif()
execute_process(COMMAND ${KEFF} tally show ${OUT}/sp.json RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 60)
if(NOT rc EQUAL 2 OR NOT err MATCHES "sp.json")
  message(FATAL_ERROR "a JSON file as the statepoint (${rc}):\n${err}")
endif()
# Results that cannot be written (a full device) are an error, not a silent truncation: status 1, said.
if(EXISTS /dev/full)
  foreach(command "tally;show;${OUT}/sp.h5;--csv" "--version")
    execute_process(COMMAND ${KEFF} ${command} OUTPUT_FILE /dev/full RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 60)
    if(NOT rc EQUAL 1 OR NOT err MATCHES "standard output could not be written")
      message(FATAL_ERROR "keff ${command} > /dev/full (${rc}):\n${err}")
    endif()
  endforeach()
endif()
message("tally show: 486 CSV rows, the last (${shown}) equal to the JSON's (${expected}); refusals named; "
        "a full standard output refused")
