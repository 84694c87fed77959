# The Python reader and result pictures (scripts/keff_results; examples/OUTPUTS.md, "Reading results in Python")
# run against keff itself: the reader's numbers equal the JSON summary's bit for bit, each command writes
# a PNG of the size asked for, bad input is refused with status 2 and one line, missing modules with
# status 3 (tests/python/test_keff_results.py). Labelled as the CLI tests, since it runs keff and the
# commands as a user does. Skipped, saying so, where numpy, h5py or matplotlib is missing
# (scripts/setup-deps.sh installs them).
find_program(KEFF_PYTHON3 python3)
if(KEFF_PYTHON3)
  add_test(NAME python_keff_results
           COMMAND ${KEFF_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/python/test_keff_results.py
                   --keff $<TARGET_FILE:keff> --repo ${PROJECT_SOURCE_DIR} --out ${CMAKE_CURRENT_BINARY_DIR}/python)
  set_tests_properties(python_keff_results PROPERTIES LABELS "cli;bad-input" TIMEOUT 300
                       SKIP_REGULAR_EXPRESSION "keff_results tests skipped:"
                       ENVIRONMENT "OMP_NUM_THREADS=1;OMP_PROC_BIND=false;OMP_WAIT_POLICY=passive")
endif()

# The README's and every page's code blocks against the code they describe (tests/python/test_docs.py):
# TOML parses, shell blocks parse and name flags keff's and the scripts' help knows, the JSON sketch
# names keys real summaries hold. Standard library only.
if(KEFF_PYTHON3)
  add_test(NAME docs_code_blocks
           COMMAND ${KEFF_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/python/test_docs.py
                   --keff $<TARGET_FILE:keff> --repo ${PROJECT_SOURCE_DIR} --out ${CMAKE_CURRENT_BINARY_DIR}/docs)
  set_tests_properties(docs_code_blocks PROPERTIES LABELS "cli" TIMEOUT 300
                       ENVIRONMENT "OMP_NUM_THREADS=1;OMP_PROC_BIND=false;OMP_WAIT_POLICY=passive")
endif()
