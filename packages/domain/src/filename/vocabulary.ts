import { languageOf } from './transliterate';

/**
 * Function words (articles, prepositions, conjunctions, pronouns) per language, spelled as `toAsciiWords`
 * writes them for that language (für → fuer, på → pa, için → icin). English ones apply in every locale, since
 * tag labels are English. Kept small on purpose: larger lists such as stopwords-iso's English one hold content
 * words (old, new, big, home, world, face, side, top) that belong in a filename.
 */
export const STOP_WORDS: Readonly<Record<string, ReadonlySet<string>>> = {
  en: wordSet(
    'a about after an and are as at be before but by for from has have her his i in into is it its my of off on onto or our over so than that the their these this those to under was we were with without your',
  ),
  de: wordSet(
    'am an auf aus bei das dem den der des die ein eine einem einen einer eines fuer im in ins ist mit nach oder ohne sind ueber um und unter vom von vor zu zum zur',
  ),
  fr: wordSet('a au aux avec ce ces d dans de des du en et l la le les leur leurs ou par pour sans sous sur un une'),
  es: wordSet('a al con de del el en la las los o para por sin sobre su sus un una unas unos y'),
  pt: wordSet('a ao aos as com da das de do dos e em na nas no nos o os ou para pela pelo por sem sob sobre um uma'),
  it: wordSet(
    'a agli ai al all alla alle con d da dal dall dalla dei del dell della delle di e gli il in l la le lo nel nell nella per su sul sull sulla tra un una uno',
  ),
  nl: wordSet('aan bij de den der die een en het in met naar of om onder op over te tegen uit van voor zonder'),
  pl: wordSet('a bez do i lub na nad o od po pod przez przy w we z za ze'),
  sv: wordSet('av de den det en ett for fran i med och om pa till under utan vid at'),
  tr: wordSet('bir da de gibi icin ile ki ve veya ya'),
};

const GENERIC_WORDS = wordSet(
  'copy dcim dsc dscf dscn edited file final image images img photo photos pic pics picture pictures pxl screen screenshot shot snapshot unnamed untitled',
);

/** Each language's words for an image, a copy or a screenshot; English ones apply in every locale. */
const LOCALE_GENERIC_WORDS: Readonly<Record<string, ReadonlySet<string>>> = {
  de: wordSet('bild bilder bildschirmfoto foto fotos kopie unbenannt'),
  fr: wordSet('capture copie ecran titre'),
  es: wordSet('captura copia foto fotos imagen imagenes pantalla'),
  pt: wordSet('captura copia foto fotos imagem imagens tela'),
  it: wordSet('copia foto immagine immagini schermata'),
  nl: wordSet('afbeelding afbeeldingen foto fotos kopie schermafbeelding'),
  pl: wordSet('ekranu kopia obraz zdjecie zdjecia zrzut'),
  sv: wordSet('bild bilder foto kopia skarmavbild skarmbild'),
  tr: wordSet('ekran foto fotograf goruntu goruntusu kopya resim'),
};

/**
 * Words about the purpose of a batch or the person, not about what its pictures show (`photos for our travel
 * blog`, `images for my shop's website`): a batch's context never puts them in a name. Spelled as `toAsciiWords`
 * writes them; English ones apply in every locale.
 */
const PURPOSE_WORDS: Readonly<Record<string, ReadonlySet<string>>> = {
  en: wordSet(
    'ad ads advert adverts article articles banner banners blog blogger blogs campaign campaigns catalog catalogue client clients customer customers ebay ecommerce etsy facebook feed gallery instagram listing listings marketing me media mine my newsletter online our ours page pages pinterest portfolio post posts product products seo shop shopify shops site sites social store stores tiktok us use used web webshop website websites',
  ),
  de: wordSet('beitrag beitraege kunde kunden laden mein meine meinen onlineshop unser unsere unseren webseite'),
  fr: wordSet('boutique ma mes mon nos notre'),
  es: wordSet('mi mis nuestra nuestras nuestro nuestros sitio tienda'),
  pt: wordSet('loja meu meus minha minhas nossa nossas nosso nossos'),
  it: wordSet('mia mie miei mio negozio nostra nostre nostri nostro sito'),
  nl: wordSet('klant klanten mijn ons onze webwinkel winkel'),
  pl: wordSet('klient klienci moj moja moje nasz nasza nasze sklep strona'),
  sv: wordSet('butik kund kunder min mina mitt vara vart webbplats'),
  tr: wordSet('benim bizim magaza musteri'),
};

/** Pure numbers and the counters cameras and phones put in names: img1234, dsc01234, pxl20240101. */
const CAMERA_COUNTER = /^(?:\d+|(?:img|imgp|dsc|dscf|dscn|dcim|pxl|mvimg|gopr|dji|wp)\d+)$/;

/** Windows device names: a file called `con.jpg` cannot be written there. */
const RESERVED_NAMES = new Set(['con', 'prn', 'aux', 'nul', ...range('com'), ...range('lpt')]);

export function isStopWord(word: string, locale: string): boolean {
  return STOP_WORDS.en!.has(word) || (STOP_WORDS[languageOf(locale)]?.has(word) ?? false);
}

export function isGenericWord(word: string, locale: string): boolean {
  return (
    GENERIC_WORDS.has(word) ||
    CAMERA_COUNTER.test(word) ||
    (LOCALE_GENERIC_WORDS[languageOf(locale)]?.has(word) ?? false)
  );
}

export function isPurposeWord(word: string, locale: string): boolean {
  return PURPOSE_WORDS.en!.has(word) || (PURPOSE_WORDS[languageOf(locale)]?.has(word) ?? false);
}

export function isReservedName(stem: string): boolean {
  return RESERVED_NAMES.has(stem);
}

function range(prefix: string): string[] {
  return Array.from({ length: 9 }, (_, index) => `${prefix}${index + 1}`);
}

function wordSet(words: string): ReadonlySet<string> {
  return new Set(words.split(' '));
}
