# The C5G7 examples are scripts/c5g7_inputs.py's output, byte for byte: the script writes them again from
# the published data into a scratch directory and each must equal the checked-in file. Without the data
# file (it lives beside the checkout, not in it) the test says so and is skipped (SKIP_REGULAR_EXPRESSION).
#   cmake -DPYTHON=python3 -DSOURCE=<source dir> -DDATA=<c5g7-7group.json> -DOUT=dir -P c5g7_inputs.cmake
if(NOT EXISTS "${DATA}")
  message("no C5G7 data at ${DATA}: skipped")
  return()
endif()
file(REMOVE_RECURSE "${OUT}")
execute_process(COMMAND ${PYTHON} ${SOURCE}/scripts/c5g7_inputs.py --data ${DATA} --out ${OUT}
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "scripts/c5g7_inputs.py failed (${rc}):\n${err}")
endif()
foreach(case 2d 3d_unrodded 3d_rodded_a 3d_rodded_b)
  execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${OUT}/${case}.toml ${SOURCE}/examples/c5g7/${case}.toml
                  RESULT_VARIABLE differ)
  if(NOT differ EQUAL 0)
    message(FATAL_ERROR "examples/c5g7/${case}.toml is not what scripts/c5g7_inputs.py writes: run it again")
  endif()
endforeach()
message("the four C5G7 examples are the generator's output")
