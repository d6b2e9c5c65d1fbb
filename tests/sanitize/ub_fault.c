/* ub_fault.c: a known fault for make sanitize-undefined. A signed addition
 * that overflows when run with no argument: built and run as the suite is,
 * UBSan must report it and stop the program, or the suite's clean result
 * would mean nothing. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    (void)argv;
    int sum = INT_MAX - 1 + argc;
    sum += atoi("1");
    printf("%d\n", sum);
    return 0;
}
