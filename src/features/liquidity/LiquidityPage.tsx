// Placeholder while the page is written; replaced before this change lands.
export default function LiquidityPage() {
  return null;
}
