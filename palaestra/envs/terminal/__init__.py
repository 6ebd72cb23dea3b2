"""Terminal tasks: work in a generated file tree with a sandboxed bash and its text, file and archive tools."""
