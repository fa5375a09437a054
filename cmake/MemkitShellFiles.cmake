# Writes what the installed CLI ships beside itself, asked of the built CLI so that all of it comes
# from the command table (docs/cli.md): the bash, zsh and fish completions, memkit(1) and one
# memkit-GROUP(1) per group of `memkit commands --format json`.
#   cmake -DMEMKIT_CLI=<built memkit> -DOUT_DIR=<folder> -P MemkitShellFiles.cmake
# OUT_DIR gets completions/{memkit.bash,_memkit,memkit.fish} and man/man1/*.1, and a stamp file.
cmake_minimum_required(VERSION 3.25)
foreach(_var MEMKIT_CLI OUT_DIR)
  if(NOT DEFINED ${_var})
    message(FATAL_ERROR "MemkitShellFiles.cmake: -D${_var}=... is required")
  endif()
endforeach()

function(write_output file)
  execute_process(COMMAND "${MEMKIT_CLI}" ${ARGN} OUTPUT_VARIABLE out RESULT_VARIABLE rc
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0 OR out STREQUAL "")
    message(FATAL_ERROR "`memkit ${ARGN}` failed (${rc}): ${err}")
  endif()
  file(WRITE "${file}" "${out}")
endfunction()

file(REMOVE_RECURSE "${OUT_DIR}/completions" "${OUT_DIR}/man")
write_output("${OUT_DIR}/completions/memkit.bash" completion bash)
write_output("${OUT_DIR}/completions/_memkit" completion zsh)
write_output("${OUT_DIR}/completions/memkit.fish" completion fish)
write_output("${OUT_DIR}/man/man1/memkit.1" man)

execute_process(COMMAND "${MEMKIT_CLI}" commands --format json OUTPUT_VARIABLE table
                COMMAND_ERROR_IS_FATAL ANY)
string(JSON _groups LENGTH "${table}" groups)
math(EXPR _last "${_groups} - 1")
foreach(_i RANGE ${_last})
  string(JSON _group GET "${table}" groups ${_i} name)
  write_output("${OUT_DIR}/man/man1/memkit-${_group}.1" man ${_group})
endforeach()
file(WRITE "${OUT_DIR}/shell-files.stamp" "")
