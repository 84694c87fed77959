# One case of a signal sent at a test point: runs `signal_at.sh ARGN` (POINT=SIGNAL ... -- command) and
# requires its exit status and a message. Shared by interrupt.cmake and interrupt_phases.cmake.
function(stops_on_signal what status regex)
  execute_process(COMMAND ${SIGNAL_AT} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 300)
  if(NOT rc EQUAL status OR NOT "${out}${err}" MATCHES "${regex}")
    message(FATAL_ERROR "${what}: expected status ${status} and '${regex}', got '${rc}':\n${out}${err}")
  endif()
  message("${what}: stopped with status ${status}")
endfunction()
