// The one account the emulator serves: its address is what /ping/ names, what agents list as their
// owner, and the address an agent may always message. A module of its own so that the task state
// and the persistent agents' state can both name it without importing each other.
export const USER_EMAIL = 'emulator@example.com';
