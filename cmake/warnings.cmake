# Warning flags every target of ours is built with: the library must be warning-free.
set(INPLACE_WARNINGS -Wall -Wextra -Wpedantic -Werror)
function(inplace_target_defaults target)
  target_compile_options(${target} PRIVATE ${INPLACE_WARNINGS})
  target_link_libraries(${target} PRIVATE inplace::inplace)
endfunction()
