"""Operations research: linear and integer programs, scheduling, covering, location and routing, solved optimally."""
