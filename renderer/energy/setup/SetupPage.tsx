export function SetupPage() {
  return <h1>Setup</h1>;
}
