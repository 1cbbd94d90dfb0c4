export function TrendsPage() {
  return <h1>Trends</h1>;
}
