"""Tool use: tasks whose turns are tool calls (search, SQL, Python, calculator) and a final answer."""
