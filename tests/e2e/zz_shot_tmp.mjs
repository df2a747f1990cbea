import { serve, launch, open, settled } from './harness.mjs';
const { server, base } = await serve();
const browser = await launch();
for (const [lang, q] of [['en', ''], ['ru', '&lang=ru']]) {
  for (const [name, viewport] of [['wide', { width: 1440, height: 900 }], ['phone', { width: 390, height: 844 }]]) {
    const page = await open(browser, `${base}?preset=reset-herd${q}`, { viewport });
    await settled(page);
    await page.waitForTimeout(500);
    await page.screenshot({ path: `/tmp/rh-${lang}-${name}.png` });
    if (name === 'wide') await page.screenshot({ path: `/tmp/rh-${lang}-${name}-full.png`, fullPage: true });
    console.log(lang, name, (await page.textContent('#lesson')).slice(0, 400));
    console.log('problems', page.problems);
    await page.context().close();
  }
}
await browser.close(); server.close();
