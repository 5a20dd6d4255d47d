/** Generated images for article figures: small deterministic SVG "photos" (a sky, hills and a skyline). */
import { Rng } from './prng';

const PALETTES: Array<[string, string, string]> = [
  ['#f6d365', '#fda085', '#5b3a29'],
  ['#a1c4fd', '#c2e9fb', '#2d4059'],
  ['#d4fc79', '#96e6a1', '#2f5233'],
  ['#fbc2eb', '#a6c1ee', '#3d2c4e'],
  ['#e0c3fc', '#8ec5fc', '#27374d'],
  ['#ffecd2', '#fcb69f', '#4a3f35'],
];

export const FIGURE_WIDTH = 1200;
export const FIGURE_HEIGHT = 675;

export function figureSvg(seed: string): string {
  const rng = new Rng(`figure:${seed}`);
  const [sky1, sky2, ground] = rng.pick(PALETTES);
  const w = FIGURE_WIDTH;
  const h = FIGURE_HEIGHT;
  const buildings: string[] = [];
  for (let x = 0; x < w; ) {
    const bw = rng.int(40, 110);
    const bh = rng.int(80, 320);
    buildings.push(`<rect x="${x}" y="${h - 140 - bh}" width="${bw - 6}" height="${bh}" fill="${ground}" opacity="${(0.55 + rng.next() * 0.4).toFixed(2)}"/>`);
    x += bw;
  }
  const sunX = rng.int(150, w - 150);
  const sunY = rng.int(90, 220);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">
<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${sky1}"/><stop offset="1" stop-color="${sky2}"/></linearGradient></defs>
<rect width="${w}" height="${h}" fill="url(#sky)"/>
<circle cx="${sunX}" cy="${sunY}" r="${rng.int(40, 80)}" fill="#fff" opacity="0.7"/>
${buildings.join('\n')}
<path d="M0 ${h - 150} Q ${w / 4} ${h - 220} ${w / 2} ${h - 160} T ${w} ${h - 170} V ${h} H 0 Z" fill="${ground}"/>
</svg>
`;
}
