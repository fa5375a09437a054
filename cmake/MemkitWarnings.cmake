# memkit_enable_warnings(target): our warning set, private to the target so consumers never inherit it.
function(memkit_enable_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion)
  # GCC 12 reports std::string concatenation at -O2 as an overlapping memcpy (GCC bug 105651);
  # the warning is a known false positive there, so it is silenced for that compiler only.
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:-Wno-restrict>)
  endif()
  if(MEMKIT_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()
