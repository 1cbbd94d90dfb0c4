import { describe, expect, it } from 'vitest';
import { parseDidl, parseEpisodeTitle } from './didl.js';

const realItem = `<DIDL-Lite xmlns="urn:schemas-upnp-org:metadata-1-0/DIDL-Lite/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:upnp="urn:schemas-upnp-org:metadata-1-0/upnp/">
<item id="585587764" parentID="60" restricted="1"><dc:title>S4 E2 - And the DJ Face & Friends &amp; Co - Wed 01 Jul</dc:title>
<upnp:class>object.item.videoItem.movie</upnp:class><description>Max &amp; Caroline.</description>
<recordedStartDateTime>Wednesday 01 July 2020 09:05 PM</recordedStartDateTime>
<res protocolInfo="http-get:*:video/vnd.dlna.mpeg-tts:DLNA.ORG_PN=AVC_TS_MP_HD_AAC;DLNA.ORG_OP=01" size="930528256" duration="0:29:4" parentTaskName="2 Broke Girls">http://127.0.0.1:49152/web/585587764</res></item>
<item id="000123" parentID="60"><dc:title>Live now</dc:title><res size="-1">http://127.0.0.1:49152/web/000123</res></item>
</DIDL-Lite>`;

describe('DIDL-Lite parsing', () => {
  it('reads the real item shape and keeps ids as strings', () => {
    const [a, b] = parseDidl(realItem);
    expect(a).toEqual({
      kind: 'item',
      id: '585587764',
      parentId: '60',
      title: 'S4 E2 - And the DJ Face & Friends & Co - Wed 01 Jul',
      upnpClass: 'object.item.videoItem.movie',
      description: 'Max & Caroline.',
      recordedStart: 'Wednesday 01 July 2020 09:05 PM',
      url: 'http://127.0.0.1:49152/web/585587764',
      size: 930528256,
      duration: '0:29:4',
      taskName: '2 Broke Girls',
    });
    expect(b).toMatchObject({ id: '000123', size: -1 });
  });

  it('allows more than a thousand entities in one document', () => {
    const items = Array.from({ length: 600 }, (_, i) => `<item id="${i}" parentID="1"><dc:title>A &amp; B &amp; C ${i}</dc:title><res size="1">http://x/${i}</res></item>`).join('');
    const parsed = parseDidl(`<DIDL-Lite xmlns:dc="http://purl.org/dc/elements/1.1/">${items}</DIDL-Lite>`);
    expect(parsed).toHaveLength(600);
    expect(parsed[599]).toMatchObject({ title: 'A & B & C 599' });
  });

  it('parses season and episode from the title forms the box uses', () => {
    expect(parseEpisodeTitle('S4 E2 - And the DJ Face - Wed 01 Jul')).toEqual({ season: 4, episode: 2, episodeTitle: 'And the DJ Face' });
    expect(parseEpisodeTitle('Season 12 Episode 3 - Pilot')).toEqual({ season: 12, episode: 3, episodeTitle: 'Pilot' });
    expect(parseEpisodeTitle('S01E05 Homecoming')).toEqual({ season: 1, episode: 5, episodeTitle: 'Homecoming' });
    expect(parseEpisodeTitle('ABC News - Sat 04 Jul')).toEqual({ season: null, episode: null, episodeTitle: 'ABC News' });
  });
});
