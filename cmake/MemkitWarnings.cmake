# memkit_enable_warnings(target): our warning set, private to the target so consumers never inherit it.
function(memkit_enable_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion)
  if(MEMKIT_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
