/* gpujpeg tool: the table of input modules. */
#include <stdarg.h>
#include <stdio.h>

#include "cli.h"
#include "input.h"

static const input_module *const modules[] = { &input_png, &input_pnm, &input_y4m, NULL };

const input_module *input_find(const uint8_t *data, size_t size)
{
    for (int i = 0; modules[i]; i++)
        if (modules[i]->probe(data, size))
            return modules[i];
    return NULL;
}

int input_fail(int code, const char *fmt, ...)
{
    char message[256];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(message, sizeof(message), fmt, ap);
    va_end(ap);
    return cli_fail(code, "%s", message);
}
