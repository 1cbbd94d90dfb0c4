/** The 4-digit passcode input both services' pages use (digits only, masked). */
export function passcodeInput(
  p: { id: string; 'aria-invalid': boolean; 'aria-describedby': string | undefined },
  value: string,
  set: (v: string) => void,
  autoComplete: 'current-password' | 'new-password',
) {
  return (
    <input
      type="password"
      inputMode="numeric"
      pattern="[0-9]{4}"
      maxLength={4}
      autoComplete={autoComplete}
      value={value}
      onChange={(e) => set(e.target.value.replace(/\D/g, '').slice(0, 4))}
      {...p}
      style={{ width: '7em' }}
    />
  );
}
