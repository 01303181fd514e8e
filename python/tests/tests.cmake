# The package's tests (label python), run with pytest by the interpreter the
# extension was built for, or Debian's /usr/bin/python3 when that one has
# pytest and the same version (the extension's ABI tag is the same).
set(DTRCHECK_PYTHON_TEST_EXECUTABLE "" CACHE FILEPATH
    "Interpreter that runs the Python package's tests (default: one with pytest)")
if(NOT DTRCHECK_PYTHON_TEST_EXECUTABLE)
  foreach(candidate ${Python3_EXECUTABLE} /usr/bin/python3)
    execute_process(COMMAND ${candidate} -c
      "import sys, pytest; print('%d.%d' % sys.version_info[:2])"
      OUTPUT_VARIABLE version OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc ERROR_QUIET)
    if(rc EQUAL 0 AND version STREQUAL "${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}")
      set(DTRCHECK_PYTHON_TEST_EXECUTABLE ${candidate})
      break()
    endif()
  endforeach()
endif()
if(NOT DTRCHECK_PYTHON_TEST_EXECUTABLE)
  message(STATUS "dtrcheck Python package: no pytest for Python ${Python3_VERSION}; "
                 "its tests are not run (apt-get install python3-pytest)")
  return()
endif()

set(env "PYTHONPATH=${DTRCHECK_PYTHON_TREE}" "DTRCHECK_TRACES=${DTRCHECK_TEST_TRACES}"
        "DTRCHECK_CLI=$<TARGET_FILE:dtrcheck>"
        "PYTHONDONTWRITEBYTECODE=1")
foreach(t api errors dtr_port simrd_adapter analyses interrupt fuzz address_policies
          address_view oneflow_port)
  add_test(NAME python_${t}
    COMMAND ${DTRCHECK_PYTHON_TEST_EXECUTABLE} -m pytest -q -p no:cacheprovider
            ${CMAKE_CURRENT_LIST_DIR}/test_${t}.py)
  set_tests_properties(python_${t} PROPERTIES LABELS python TIMEOUT 900 ENVIRONMENT "${env}"
                       SKIP_RETURN_CODE 5)
endforeach()
# Every simrd class, the graph walks in Python: 150 CPU s, twice that on a
# busy machine.
set_tests_properties(python_simrd_adapter PROPERTIES TIMEOUT 1800)

# The notebook example as a script (examples/python/): a scan with a Python
# policy, and its plot where matplotlib is installed.
add_test(NAME python_example_scan_policy
  COMMAND ${DTRCHECK_PYTHON_TEST_EXECUTABLE} ${PROJECT_SOURCE_DIR}/examples/python/scan_policy.py
          --step 0.005 --plot ${CMAKE_CURRENT_BINARY_DIR}/scan_policy.png)
set_tests_properties(python_example_scan_policy PROPERTIES LABELS python TIMEOUT 600
                     ENVIRONMENT "${env}")
