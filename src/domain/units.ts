/**
 * Units a workspace shows measurements in. Figures are kept in metres; only their display converts. Metric: m, m²,
 * m³ with two, two and one decimals (an area to 0.01 m², what a quote is priced from). Imperial: feet and inches to the
 * nearest inch, ft² and ft³ to the unit.
 */
export type Units = 'metric' | 'imperial';

export const METRES_PER_FOOT = 0.3048;
const SQ_FEET_PER_SQ_METRE = 1 / METRES_PER_FOOT ** 2;
const CU_FEET_PER_CU_METRE = 1 / METRES_PER_FOOT ** 3;

export function toFeet(metres: number): number {
  return metres / METRES_PER_FOOT;
}

export function fromFeet(feet: number): number {
  return feet * METRES_PER_FOOT;
}

export function toSquareFeet(squareMetres: number): number {
  return squareMetres * SQ_FEET_PER_SQ_METRE;
}

export function fromSquareFeet(squareFeet: number): number {
  return squareFeet / SQ_FEET_PER_SQ_METRE;
}

// One formatter per number of decimals: toLocaleString with options builds a new one each call, which a page that
// labels thousands of walls felt (docs/performance.md, "A big scan's page").
const formatters = new Map<number, Intl.NumberFormat>();
const grouped = (n: number, decimals: number) => {
  let format = formatters.get(decimals);
  if (!format)
    formatters.set(
      decimals,
      (format = new Intl.NumberFormat('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })),
    );
  return format.format(n);
};

export function formatLength(metres: number, units: Units): string {
  if (units === 'metric') return `${grouped(metres, 2)} m`;
  const inches = Math.round(toFeet(metres) * 12);
  return `${grouped(Math.floor(inches / 12), 0)}′ ${inches % 12}″`;
}

export function formatArea(squareMetres: number, units: Units): string {
  return units === 'metric'
    ? `${grouped(squareMetres, 2)} m²`
    : `${grouped(Math.round(toSquareFeet(squareMetres)), 0)} ft²`;
}

export function formatVolume(cubicMetres: number, units: Units): string {
  return units === 'metric'
    ? `${grouped(cubicMetres, 1)} m³`
    : `${grouped(Math.round(cubicMetres * CU_FEET_PER_CU_METRE), 0)} ft³`;
}
