# Runs xs_lookup_bench's reference pass on XSBench's H-M problem and passes only if it exits 0 and gives,
# for each MODE=NUMBER in EXPECT, XSBench's own verification number for that lookup stream.
#   cmake -DCMD="..." -DEXPECT="event=999388;history=54715" -P hm_verification.cmake
execute_process(COMMAND ${CMD} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
message("exit status: ${rc}\n${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "expected exit status 0, got '${rc}'")
endif()
foreach(pair IN LISTS EXPECT)
  string(REPLACE "=" ";" pair "${pair}")
  list(GET pair 0 mode)
  list(GET pair 1 number)
  if(NOT out MATCHES "result [^\n]* mode=${mode} [^\n]* xsbench_verification=([0-9]+) ")
    message(FATAL_ERROR "no result line for mode ${mode}")
  endif()
  if(NOT CMAKE_MATCH_1 STREQUAL number)
    message(FATAL_ERROR "mode ${mode}: verification ${CMAKE_MATCH_1}, XSBench gives ${number}")
  endif()
endforeach()
